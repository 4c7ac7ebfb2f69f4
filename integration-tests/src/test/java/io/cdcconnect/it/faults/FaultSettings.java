package io.cdcconnect.it.faults;

import java.nio.file.Path;

/**
 * How hard the fault suite pushes. The default {@code mvn -B verify} runs each scenario once, short; {@code
 * -Dcdc.faults=long} runs the long version (20 worker kills, 50 rebalances, 60 s outages). Each figure can also be set
 * on its own.
 */
final class FaultSettings {
    private FaultSettings() {
    }

    static boolean longRun() {
        return "long".equals(System.getProperty("cdc.faults", ""));
    }

    /** Worker kills at random moments in {@code WorkerCrashTest} ({@code cdc.faults.kills}). */
    static int kills() {
        return Integer.getInteger("cdc.faults.kills", longRun() ? 20 : 3);
    }

    /** Rebalances of the sink's consumer group in {@link RebalanceTest} ({@code cdc.faults.bounces}). */
    static int bounces() {
        return Integer.getInteger("cdc.faults.bounces", longRun() ? 50 : 6);
    }

    /** How long the target is down or read-only in {@link OutageTest} ({@code cdc.faults.outage.seconds}). */
    static int outageSeconds() {
        return Integer.getInteger("cdc.faults.outage.seconds", longRun() ? 60 : 30);
    }

    /** The seed of the random moments ({@code cdc.faults.seed}); printed by each test so a run can be repeated. */
    static long seed() {
        return Long.getLong("cdc.faults.seed", System.nanoTime());
    }

    static Path workDir(String name) {
        return Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve(name);
    }
}
