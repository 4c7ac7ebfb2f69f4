package io.cdcconnect.codec;

import java.util.Locale;

/** What an encoder does with a message larger than {@code max-message-bytes} (TiCDC's {@code large-message-handle-option}). */
public enum LargeMessageHandle {
    /** Fail with a {@link CodecException} naming the table and the sizes. */
    NONE,
    /** Send only the handle-key columns, marked {@code onlyHandleKey} / {@code ohk}; fail if that is still too large. */
    HANDLE_KEY_ONLY;

    /** Parses TiCDC's spelling: {@code none}, {@code handle-key-only}. */
    public static LargeMessageHandle parse(String name) {
        switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "none": case "": return NONE;
            case "handle-key-only": case "handle_key_only": return HANDLE_KEY_ONLY;
            default: throw new IllegalArgumentException("unknown large-message handle '" + name
                    + "' (expected none or handle-key-only)");
        }
    }

    public String configName() {
        return this == NONE ? "none" : "handle-key-only";
    }
}
