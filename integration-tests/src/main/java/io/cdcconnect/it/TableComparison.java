package io.cdcconnect.it;

import io.cdcconnect.verify.ConnectionSource;
import io.cdcconnect.verify.RowDifference;
import io.cdcconnect.verify.TableResult;
import io.cdcconnect.verify.Verifier;
import io.cdcconnect.verify.VerifyReport;
import io.cdcconnect.verify.VerifyRequest;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compares every row of tables in two databases, by key, column by column: the tests' view of cdc-verify (module
 * {@code verify}, the command users run), on connections the caller owns. The result names the rows that are
 * missing, extra or different.
 */
public final class TableComparison {

    /** The outcome for one table. */
    public record Result(String table, int sourceRows, int targetRows, List<String> differences, int differenceCount) {
        public boolean matches() {
            return differenceCount == 0;
        }

        @Override
        public String toString() {
            return table + ": " + sourceRows + " rows upstream, " + targetRows + " downstream, " + differenceCount
                    + " differing" + (differences.isEmpty() ? "" : " e.g. " + differences);
        }
    }

    private static final int SHOWN = 5;

    private TableComparison() {
    }

    public static List<Result> compareAll(Connection source, String sourceDb, Connection target, String targetDb,
                                          List<String> tables) throws SQLException {
        List<String> names = new ArrayList<>();
        for (String t : tables) names.add(sourceDb + "." + t);
        VerifyRequest request = VerifyRequest.of(ConnectionSource.shared(source), ConnectionSource.shared(target),
                names, Map.of(sourceDb, targetDb)).withThreads(1).withShown(SHOWN);
        VerifyReport report = Verifier.run(request, null);
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) results.add(result(tables.get(i), report.tables().get(i)));
        return results;
    }

    public static Result compare(Connection source, String sourceDb, Connection target, String targetDb, String table)
            throws SQLException {
        return compareAll(source, sourceDb, target, targetDb, List.of(table)).get(0);
    }

    private static Result result(String table, TableResult t) throws SQLException {
        if (t.status() == TableResult.Status.ERROR) throw new SQLException(t.source() + ": " + t.error());
        List<String> diffs = new ArrayList<>(t.structureDifferences());
        for (RowDifference d : t.differences()) {
            if (diffs.size() < SHOWN) diffs.add(d.toString());
        }
        long count = t.differingRows() + t.structureDifferences().size();
        return new Result(table, (int) t.sourceRows(), (int) t.targetRows(), diffs, (int) Math.min(Integer.MAX_VALUE, count));
    }
}
