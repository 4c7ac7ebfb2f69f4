package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.apply.SchemaAllowList;
import io.cdcconnect.sink.ddl.control.DdlCoordinator;
import io.cdcconnect.sink.ddl.DdlPolicy;
import io.cdcconnect.sink.metrics.SinkMetrics;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The trust boundary for one decoded record, before anything of it reaches the pipeline (docs/security.md): its
 * DDL is checked against {@code ddl.apply} and the rules no message may break, and its rows against the schemas a
 * message may change ({@link SchemaAllowList}). A refused record is errant as a whole: none of its rows is applied and
 * no SQL runs for it.
 */
final class RecordScreen {

    private static final Logger LOG = LoggerFactory.getLogger(RecordScreen.class);

    private final DdlPolicy ddlPolicy;
    private final SchemaAllowList allowList;
    /** The target schema of a source schema ({@code schema.map}). */
    private final UnaryOperator<String> targetSchema;
    private final SinkMetrics metrics;

    RecordScreen(DdlPolicy ddlPolicy, SchemaAllowList allowList, UnaryOperator<String> targetSchema,
                 SinkMetrics metrics) {
        this.ddlPolicy = ddlPolicy;
        this.allowList = allowList;
        this.targetSchema = targetSchema;
        this.metrics = metrics;
    }

    /** A record with a row change in a schema no message may change: the record is errant. */
    static final class SchemaRefusedException extends RuntimeException {
        SchemaRefusedException(String message) {
            super(message);
        }
    }

    /** Thrown for a DDL statement the sink will not run whatever the policy: the record is errant. */
    static final class DdlRefusedException extends RuntimeException {
        DdlRefusedException(String message) {
            super(message);
        }
    }

    /**
     * The record's events as the pipeline may take them: its DDL screened ({@link #screenDdl}), nothing if it is
     * refused, in which case it has gone to {@code errant}.
     */
    List<ChangeEvent> screen(SinkRecord record, List<ChangeEvent> events, ErrantRecords errant) {
        try {
            events = screenDdl(events, record);
        } catch (DdlRefusedException e) {
            errant.errant(record, e, "refused the DDL statement of the record at %s");
            return List.of();
        }
        String refused = refusedSchema(events);
        if (refused != null) {
            errant.errant(record, new SchemaRefusedException(refused), "refused the rows of the record at %s");
            return List.of();
        }
        return events;
    }

    /**
     * Why the record's rows may not be applied: the refusal of the first row change whose target schema (after
     * {@code schema.map}) the allow-list does not permit, or null.
     */
    private String refusedSchema(List<ChangeEvent> events) {
        TableInfo checked = null;
        for (ChangeEvent e : events) {
            if (!(e instanceof RowChange row)) continue;
            // the rows of one table version share its TableInfo: one look-up per run of them
            if (row.table() == checked) continue;
            String target = targetSchema.apply(row.table().schema());
            if (!allowList.permits(target)) {
                return "row change of " + row.table().schema() + "." + row.table().table() + ": "
                        + allowList.refusal(target);
            }
            checked = row.table();
        }
        return null;
    }

    /**
     * The record's events with DDL checked against {@code ddl.apply} and the rules no message may break: statements of
     * a kind left out are dropped (logged, counted); anything else that is not one allowed schema change refuses the
     * whole record. A statement that runs is carried onwards as the sink writes it, not as the message's text,
     * with its parsed statement ({@link io.cdcconnect.codec.model.DdlChange#checked()}): the one parse of its text.
     */
    private List<ChangeEvent> screenDdl(List<ChangeEvent> events, SinkRecord record) {
        List<ChangeEvent> out = null;
        for (int i = 0; i < events.size(); i++) {
            if (!(events.get(i) instanceof DdlChange ddl)) {
                if (out != null) out.add(events.get(i));
                continue;
            }
            String target = ddl.schema().isEmpty() ? "" : targetSchema.apply(ddl.schema());
            if (!target.isEmpty() && !allowList.permits(target)) {
                throw new DdlRefusedException("the DDL text is not run: " + allowList.refusal(target));
            }
            DdlPolicy.Decision d = ddlPolicy.decide(ddl.query(), target, targetSchema::apply, allowList::permits);
            switch (d.verdict()) {
                case APPLY -> {
                    // the parsed statement travels with the change: nothing after this reads the text again
                    if (out == null) out = new ArrayList<>(events.subList(0, i));
                    out.add(ddl.checkedAs(d.statement().canonical(), d.statement()));
                }
                case SKIP -> {
                    LOG.warn("Skipped a {} statement at {}: {}", d.kind().settingName(), ErrantRecords.where(record),
                            d.reason());
                    metrics.ddlSkipped();
                    if (out == null) out = new ArrayList<>(events.subList(0, i));
                }
                case REFUSE -> throw new DdlRefusedException("the DDL text is not run: " + d.reason()
                        + " (ddl.apply and docs/security.md say what the sink runs)");
            }
        }
        return out == null ? events : out;
    }

    /**
     * To how many partitions the producer sent the record's DDL statement ({@link DdlCoordinator#COPIES_HEADER}), or 0
     * when it does not say (TiCDC) or the record carries none. Whatever the header converter made of it: a number, or
     * its text.
     */
    static int ddlCopies(SinkRecord record, List<ChangeEvent> events) {
        // the header first: most records carry none, and this runs for every record
        Header h = record.headers().lastWithName(DdlCoordinator.COPIES_HEADER);
        if (h == null || h.value() == null) return 0;
        boolean ddl = false;
        for (ChangeEvent e : events) ddl |= e instanceof DdlChange;
        if (!ddl) return 0;
        Object v = h.value();
        String text = v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v.toString();
        try {
            int n = Integer.parseInt(text.trim());
            return n >= 1 && n <= 100_000 ? n : 0;
        } catch (NumberFormatException e) {
            return 0; // not ours to trust: the statement is then run as if no other task had a copy
        }
    }
}
