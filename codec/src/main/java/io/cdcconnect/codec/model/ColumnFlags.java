package io.cdcconnect.codec.model;

/** Column flag bits, the same values as TiCDC's {@code model.ColumnFlagType} (Open-protocol field {@code f}). */
public final class ColumnFlags {
    public static final int BINARY = 0x01;
    public static final int HANDLE_KEY = 0x02;
    public static final int GENERATED = 0x04;
    public static final int PRIMARY_KEY = 0x08;
    public static final int UNIQUE_KEY = 0x10;
    public static final int MULTIPLE_KEY = 0x20;
    public static final int NULLABLE = 0x40;
    public static final int UNSIGNED = 0x80;

    private ColumnFlags() {
    }

    public static boolean has(int flags, int bit) {
        return (flags & bit) != 0;
    }
}
