package io.cdcconnect.it;

import io.cdcconnect.it.charts.Bar;
import io.cdcconnect.it.charts.TextBars;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Rows per second of each stage of the pipeline while it was busy: samples of the messages captured into Kafka and
 * applied by the sink (every 250 ms, from {@link #start}), each stage's rate taken from its first growth to the
 * moment it reached its final count. The main job prints them as bars after the workload's own rate.
 */
final class StageRates implements AutoCloseable {
    private record Sample(long nanos, long captured, long applied) {
    }

    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stage-rates");
        t.setDaemon(true);
        return t;
    });
    private final List<Bar> extra = new ArrayList<>();

    static StageRates start(Supplier<PipelineProgress.Snapshot> progress) {
        StageRates s = new StageRates();
        s.timer.scheduleAtFixedRate(() -> {
            try {
                PipelineProgress.Snapshot p = progress.get();
                s.samples.add(new Sample(System.nanoTime(), p.captured(), p.applied()));
            } catch (RuntimeException e) {
                // a reading Kafka did not answer in time: the next one counts
            }
        }, 0, 250, TimeUnit.MILLISECONDS);
        return s;
    }

    /** A stage measured elsewhere (the workload's writes). */
    void add(String stage, long rows, double seconds) {
        extra.add(bar(stage, rows, seconds));
    }

    /** The bars in pipeline order: {@code firstStage} (added), captured into Kafka, applied by the sink. */
    List<String> render(String firstStage) {
        close();
        List<Bar> bars = new ArrayList<>();
        extra.stream().filter(b -> b.label().equals(firstStage)).forEach(bars::add);
        bars.add(rate("captured into Kafka (source connector)", true));
        bars.add(rate("applied downstream (sink connector)", false));
        return TextBars.render(bars, 40);
    }

    private Bar rate(String stage, boolean captured) {
        if (samples.size() < 2) return new Bar(stage, Double.NaN, "not measured");
        long first = value(samples.get(0), captured);
        long last = value(samples.get(samples.size() - 1), captured);
        long startNanos = samples.get(0).nanos();
        long endNanos = samples.get(samples.size() - 1).nanos();
        for (Sample s : samples) {
            if (value(s, captured) == first) startNanos = s.nanos();
            else break;
        }
        for (Sample s : samples) {
            if (value(s, captured) == last) {
                endNanos = s.nanos();
                break;
            }
        }
        return bar(stage, last - first, (endNanos - startNanos) / 1e9);
    }

    private static long value(Sample s, boolean captured) {
        return captured ? s.captured() : s.applied();
    }

    private static Bar bar(String stage, long rows, double seconds) {
        if (rows <= 0 || seconds <= 0) return new Bar(stage, Double.NaN, "–");
        double r = rows / seconds;
        return new Bar(stage, r, String.format(Locale.ROOT, "%,.0f rows/s (%,d in %.1f s)", r, rows, seconds));
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
