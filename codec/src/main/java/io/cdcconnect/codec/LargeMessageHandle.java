package io.cdcconnect.codec;

import java.util.Locale;

/** What an encoder does with a message larger than {@code max-message-bytes} (TiCDC's {@code large-message-handle-option}). */
public enum LargeMessageHandle {
    /** Fail with a {@link CodecException} naming the table and the sizes. */
    NONE("none"),
    /** Send only the handle-key columns, marked {@code onlyHandleKey} / {@code ohk}; fail if that is still too large. */
    HANDLE_KEY_ONLY("handle-key-only"),
    /**
     * Store the whole message in the claim-check store ({@link ClaimCheck}) and send only the handle-key columns with
     * the stored message's location ({@code claimCheckLocation} / {@code ccl}); a decoder with the same store reads
     * the whole row back.
     */
    CLAIM_CHECK("claim-check");

    private final String configName;

    LargeMessageHandle(String configName) {
        this.configName = configName;
    }

    /** Parses TiCDC's spelling: {@code none}, {@code handle-key-only}, {@code claim-check}. */
    public static LargeMessageHandle parse(String name) {
        switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "none": case "": return NONE;
            case "handle-key-only": case "handle_key_only": return HANDLE_KEY_ONLY;
            case "claim-check": case "claim_check": return CLAIM_CHECK;
            default: throw new IllegalArgumentException("unknown large-message handle '" + name
                    + "' (expected none, handle-key-only or claim-check)");
        }
    }

    public String configName() {
        return configName;
    }
}
