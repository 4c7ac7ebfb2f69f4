package io.cdcconnect.verify;

import java.util.List;

/**
 * The report as one JSON document ({@code cdc-verify --output json}): the two sides (URLs without passwords), every
 * table compared with its row counts and result, the differing rows by key and, for different values, by column with
 * both values as the text output shows them, and the exit status. Written by hand: cdc-verify's only runtime
 * dependencies are the JDBC drivers and picocli.
 */
final class JsonReport {
    private final StringBuilder sb = new StringBuilder();

    private JsonReport() {
    }

    /** A finished comparison. */
    static String of(String version, Endpoint source, Endpoint target, VerifyReport report) {
        JsonReport j = new JsonReport();
        j.sb.append('{');
        j.header(version, source, target);
        j.field("sourceServer", report.sourceServer()).sb.append(',');
        j.field("targetServer", report.targetServer()).sb.append(',');
        j.field("millis", report.millis()).sb.append(',');
        j.key("tables").sb.append('[');
        List<TableResult> tables = report.tables();
        for (int i = 0; i < tables.size(); i++) {
            if (i > 0) j.sb.append(',');
            j.table(tables.get(i));
        }
        j.sb.append("],");
        j.result(report.exitStatus(), null);
        return j.sb.append('}').toString();
    }

    /** A run that could not compare at all (a connection refused, a pattern matching no table). */
    static String failed(String version, Endpoint source, Endpoint target, String error) {
        JsonReport j = new JsonReport();
        j.sb.append('{');
        j.header(version, source, target);
        j.key("tables").sb.append("[],");
        j.result(VerifyReport.ERROR, error);
        return j.sb.append('}').toString();
    }

    private void header(String version, Endpoint source, Endpoint target) {
        field("tool", "cdc-verify").sb.append(',');
        field("version", version).sb.append(',');
        key("source");
        endpoint(source);
        sb.append(',');
        key("target");
        endpoint(target);
        sb.append(',');
    }

    private void result(int exitStatus, String error) {
        field("result", switch (exitStatus) {
            case VerifyReport.EQUAL -> "equal";
            case VerifyReport.DIFFERENT -> "different";
            default -> "error";
        }).sb.append(',');
        if (error != null) field("error", error).sb.append(',');
        field("exitStatus", exitStatus);
    }

    private void endpoint(Endpoint e) {
        sb.append('{');
        field("url", e.displayUrl()).sb.append(',');
        field("user", e.user()).sb.append('}');
    }

    private void table(TableResult t) {
        sb.append('{');
        field("source", t.source()).sb.append(',');
        field("target", t.target()).sb.append(',');
        field("result", t.status().name().toLowerCase(java.util.Locale.ROOT)).sb.append(',');
        field("rowsUpstream", t.sourceRows()).sb.append(',');
        field("rowsDownstream", t.targetRows()).sb.append(',');
        field("chunks", t.chunks()).sb.append(',');
        field("differingChunks", t.differingChunks()).sb.append(',');
        field("missingDownstream", t.missingDownstream()).sb.append(',');
        field("extraDownstream", t.extraDownstream()).sb.append(',');
        field("differentRows", t.differentRows()).sb.append(',');
        field("unlisted", Math.max(0, t.unlisted())).sb.append(',');
        key("structure");
        strings(t.structureDifferences());
        sb.append(',');
        key("notes");
        strings(t.notes());
        sb.append(',');
        if (t.error() != null) field("error", t.error()).sb.append(',');
        key("differences").sb.append('[');
        List<RowDifference> ds = t.status() == TableResult.Status.DIFFERENT ? t.differences() : List.of();
        for (int i = 0; i < ds.size(); i++) {
            RowDifference d = ds.get(i);
            if (i > 0) sb.append(',');
            sb.append('{');
            field("kind", d.kind().label()).sb.append(',');
            field("key", d.key());
            if (!d.columns().isEmpty()) {
                sb.append(',');
                key("columns").sb.append('[');
                for (int c = 0; c < d.columns().size(); c++) {
                    RowDifference.Column col = d.columns().get(c);
                    if (c > 0) sb.append(',');
                    sb.append('{');
                    field("column", col.name()).sb.append(',');
                    field("upstream", col.upstream()).sb.append(',');
                    field("downstream", col.downstream()).sb.append('}');
                }
                sb.append(']');
            }
            sb.append('}');
        }
        sb.append("]}");
    }

    private void strings(List<String> list) {
        sb.append('[');
        for (int i = 0; i < list.size(); i++) {
            if (i > 0) sb.append(',');
            string(list.get(i));
        }
        sb.append(']');
    }

    private JsonReport key(String name) {
        string(name);
        sb.append(':');
        return this;
    }

    private JsonReport field(String name, String value) {
        key(name);
        if (value == null) sb.append("null");
        else string(value);
        return this;
    }

    private JsonReport field(String name, long value) {
        key(name);
        sb.append(value);
        return this;
    }

    private void string(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }
}
