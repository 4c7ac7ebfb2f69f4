package io.cdcconnect.sink.testutil;

import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.sink.CdcSinkConfig;
import io.cdcconnect.sink.CdcSinkTask;
import io.cdcconnect.testsupport.connect.SinkTaskDriver;
import io.cdcconnect.testsupport.db.DatabaseServer;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

import java.util.HashMap;
import java.util.Map;

/**
 * test-support's {@link SinkTaskDriver} on a {@link CdcSinkTask} connected to {@link SinkTarget}, fed Canal-JSON
 * records encoded here from events.
 */
public final class TaskDriver extends SinkTaskDriver<CdcSinkTask> {

    private final CanalJsonEncoder encoder;

    public TaskDriver(Map<String, String> extra) {
        this(extra, null);
    }

    /** Connected to {@code target} instead of {@link SinkTarget}'s server (its URL, user and password). */
    public TaskDriver(DatabaseServer target, Map<String, String> extra) {
        this(withTarget(target, extra), null);
    }

    /** With a context standing in for Connect's (e.g. to provide an errant-record reporter). */
    public TaskDriver(Map<String, String> extra, SinkTaskContext context) {
        this(extra, context, CanalJsonOptions.defaults());
    }

    /** With the records encoded under {@code options} (e.g. TiCDC's content-compatible mode). */
    public TaskDriver(Map<String, String> extra, SinkTaskContext context, CanalJsonOptions options) {
        super(new CdcSinkTask(), props(extra), context);
        this.encoder = new CanalJsonEncoder(options);
    }

    private static Map<String, String> withTarget(DatabaseServer target, Map<String, String> extra) {
        Map<String, String> props = new HashMap<>();
        props.put(CdcSinkConfig.CONNECTION_URL, SinkTarget.url(target));
        props.put(CdcSinkConfig.CONNECTION_USER, target.user());
        props.put(CdcSinkConfig.CONNECTION_PASSWORD, target.password());
        props.putAll(extra);
        return props;
    }

    private static Map<String, String> props(Map<String, String> extra) {
        Map<String, String> props = new HashMap<>();
        props.put("name", "driver");
        // every test's tasks share this name: a DDL checkpoint (keyed by connector, topic, partition) would carry
        // over from one test to the next, so it is off unless a test turns it on under a name of its own
        props.put("ddl.checkpoint.database", "");
        props.putAll(extra);
        // SinkTarget's server only where no other target is named (asking for it starts it)
        props.computeIfAbsent(CdcSinkConfig.CONNECTION_URL, k -> SinkTarget.url());
        props.computeIfAbsent(CdcSinkConfig.CONNECTION_USER, k -> SinkTarget.user());
        props.computeIfAbsent(CdcSinkConfig.CONNECTION_PASSWORD, k -> SinkTarget.password());
        return props;
    }

    /** Sends the events as Canal-JSON records on partition 0. */
    public void put(ChangeEvent... events) {
        byte[][] values = new byte[events.length][];
        for (int i = 0; i < events.length; i++) values[i] = encoder.encode(events[i]);
        putValues(values);
    }

    /** A Canal-JSON record of {@code e} at the next offset, not yet sent. */
    public SinkRecord recordOf(ChangeEvent e) {
        return record(encoder.encode(e));
    }
}
