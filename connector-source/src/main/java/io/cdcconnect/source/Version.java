package io.cdcconnect.source;

/** The connector's version, from the jar manifest when packed, else the development version. */
final class Version {
    private Version() {
    }

    static String get() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v != null ? v : "unpackaged";
    }
}
