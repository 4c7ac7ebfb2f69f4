package io.cdcconnect.it.charts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SVG writer's output parsed as XML, the ratio charts of a benchmark report, and the terminal bars. */
class ChartsTest {

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aBarChartIsWellFormedSvgWithOneBarPerValueScaledToTheLargest() throws Exception {
        String svg = SvgBarChart.render("Sink <MariaDB> & \"PostgreSQL\"", List.of(
                new Bar("ours, canal-json", 16.16, "16.16×"), new Bar("a <b> & 'c'", 8.08, "8.08×"),
                new Bar("Debezium JDBC sink", 1.0, "1.00×")), 1.0, "1× (baseline)");
        Document doc = parse(svg);
        Element root = doc.getDocumentElement();
        assertEquals("svg", root.getLocalName());
        assertEquals("http://www.w3.org/2000/svg", root.getNamespaceURI());
        NodeList rects = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
        assertEquals(4, rects.getLength(), "a background and three bars");
        double first = Double.parseDouble(((Element) rects.item(1)).getAttribute("width"));
        double second = Double.parseDouble(((Element) rects.item(2)).getAttribute("width"));
        double third = Double.parseDouble(((Element) rects.item(3)).getAttribute("width"));
        assertEquals(2.0, first / second, 0.01);
        assertEquals(16.16, first / third, 0.05);
        assertTrue(root.getTextContent().contains("Sink <MariaDB> & \"PostgreSQL\""), "title escaped and read back");
        assertTrue(root.getTextContent().contains("a <b> & 'c'"));
        assertEquals(1, doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "line").getLength(), "the 1× line");
    }

    @Test
    void aReportGetsOneChartPerRatioTableAndOneLinkEachTimeItIsRun(@TempDir Path dir) throws Exception {
        String md = """
                # End-to-end benchmarks

                ## Source: binlog → Kafka

                | connector | rows/s | rows/s vs Debezium |
                |---|---:|---:|
                | ours, canal-json | 37,325 | 2.82× |
                | ours, avro | 44,292 | 3.35× |
                | Debezium MariaDB + JsonConverter | 13,229 | 1.00× |

                ## Sink: Kafka → MariaDB

                | sink | rows/s | vs Debezium JDBC | of ceiling |
                |---|---:|---:|---:|
                | plain JDBC ceiling: 2 connections, per table windows | 81,533 | 25.43× | 100.0% |
                | ours, batching off (max.txn.rows=1: one row per statement) | 2,413 | 0.75× | 3.0% |
                | broken | | | |

                ## Goals

                | goal | measured | met |
                |---|---|---|
                | sink ≥ 3× Debezium | 16.16× | yes |
                """;
        Path report = dir.resolve("benchmarks-e2e.md");
        String once = RatioCharts.addCharts(md, report);
        String twice = RatioCharts.addCharts(once, report);
        assertEquals(once, twice, "a second run replaces its charts, adds no link");
        assertTrue(once.contains("![Source: binlog → Kafka: rows/s vs Debezium](benchmarks-e2e-source-binlog-kafka.svg)"), once);
        assertTrue(once.contains("(benchmarks-e2e-sink-kafka-mariadb.svg)"), once);
        try (var files = Files.list(dir)) {
            assertEquals(2, files.filter(p -> p.toString().endsWith(".svg")).count(), "none for the goals table");
        }
        Document sink = parse(Files.readString(dir.resolve("benchmarks-e2e-sink-kafka-mariadb.svg")));
        String text = sink.getDocumentElement().getTextContent();
        assertTrue(text.contains("plain JDBC ceiling") && text.contains("ours, batching off") && text.contains("0.75×"), text);
        assertEquals(3, sink.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect").getLength(), "background and 2 bars");
    }

    @Test
    void terminalBarsAreProportional() {
        List<String> lines = TextBars.render(List.of(new Bar("captured", 10_000, "10,000 rows/s"),
                new Bar("applied", 5_000, "5,000 rows/s")), 40);
        assertEquals(2, lines.size());
        assertEquals(40, lines.get(0).chars().filter(c -> c == '█').count());
        assertEquals(20, lines.get(1).chars().filter(c -> c == '█').count());
        assertTrue(lines.get(1).startsWith("applied "), lines.get(1));
    }
}
