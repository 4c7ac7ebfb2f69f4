package io.cdcconnect.sink;

/**
 * The connector's version: the {@code Implementation-Version} of its jar's manifest (the project version, written by
 * the build), or "unpackaged" when its classes run from a build folder (tests).
 */
final class Version {

    private Version() {
    }

    static String get() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v != null ? v : "unpackaged";
    }
}
