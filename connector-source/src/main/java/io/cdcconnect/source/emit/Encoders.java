package io.cdcconnect.source.emit;

import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.source.CdcSourceConfig;

/** Builds the {@link MessageEncoder} of the configured output format. */
public final class Encoders {
    private Encoders() {
    }

    public static MessageEncoder create(CdcSourceConfig config) {
        switch (config.outputFormat()) {
            case CANAL_JSON:
                return new CanalJsonMessageEncoder(CanalJsonOptions.builder()
                        .enableTidbExtension(config.tidbExtension())
                        .maxMessageBytes(config.maxMessageBytes())
                        .build());
            default:
                throw new IllegalArgumentException("output.format=" + config.outputFormat().configName()
                        + " is not available in this build");
        }
    }
}
