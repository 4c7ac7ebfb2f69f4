package io.cdcconnect.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report as text: a line per table, the differing keys under it, and a RESULT line. */
public final class Summary {
    private Summary() {
    }

    public static List<String> lines(VerifyReport report) {
        List<String> out = new ArrayList<>();
        int w1 = "source table".length(), w2 = "target table".length();
        for (TableResult t : report.tables()) {
            w1 = Math.max(w1, t.source().length());
            w2 = Math.max(w2, t.target().length());
        }
        String fmt = "%-" + w1 + "s  %-" + w2 + "s  %13s  %15s  %6s  %s";
        out.add(String.format(Locale.ROOT, fmt, "source table", "target table", "rows upstream", "rows downstream",
                "chunks", "result"));
        int differing = 0, errors = 0;
        for (TableResult t : report.tables()) {
            String result = switch (t.status()) {
                case EQUAL -> "equal";
                case ERROR -> {
                    errors++;
                    yield "ERROR: " + t.error();
                }
                case DIFFERENT -> {
                    differing++;
                    yield "DIFFERENT: " + t.missingDownstream() + " missing downstream, " + t.extraDownstream()
                            + " extra downstream, " + t.differentRows() + " different"
                            + (t.structureDifferences().isEmpty() ? "" : "; " + String.join("; ", t.structureDifferences()));
                }
            };
            out.add(String.format(Locale.ROOT, fmt, t.source(), t.target(), String.format(Locale.ROOT, "%,d", t.sourceRows()),
                    String.format(Locale.ROOT, "%,d", t.targetRows()), t.chunks() + (t.differingChunks() > 0
                            ? " (" + t.differingChunks() + " differ)" : ""), result));
            for (String n : t.notes()) out.add("    note: " + n);
            if (t.status() == TableResult.Status.DIFFERENT) {
                for (RowDifference d : t.differences()) out.add("    " + d);
                if (t.unlisted() > 0) out.add("    … " + t.unlisted() + " more (--show raises the limit)");
            }
        }
        int n = report.tables().size();
        String secs = String.format(Locale.ROOT, "%.1f s", report.millis() / 1000.0);
        out.add(switch (report.exitStatus()) {
            case VerifyReport.EQUAL -> "RESULT: equal, " + n + (n == 1 ? " table" : " tables") + " compared in " + secs;
            case VerifyReport.DIFFERENT -> "RESULT: DIFFERENT, " + differing + " of " + n + " tables differ (" + secs + ")";
            default -> "RESULT: ERROR, " + errors + " of " + n + " tables could not be compared"
                    + (differing > 0 ? ", " + differing + " differ" : "") + " (" + secs + ")";
        });
        return out;
    }
}
