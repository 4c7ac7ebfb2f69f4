package io.cdcconnect.codec.util;

import java.util.Locale;

/** What both connectors say at start about credentials that would cross the network unprotected. */
public final class Transport {

    private Transport() {
    }

    /**
     * Null when the schema registry's credentials, if any, go over https; otherwise the warning to log: basic
     * authentication over plain http shows the user and password to anyone on the path.
     *
     * @param registryUrl    the registry's URL (may carry user:password@; never shown)
     * @param credentials    whether a user name or password is configured besides the URL's own user info
     * @param urlSetting     the setting that names the URL, to be changed to https
     */
    public static String registryCredentialsInClear(String registryUrl, boolean credentials, String urlSetting) {
        if (registryUrl == null) return null;
        String u = registryUrl.trim();
        if (!u.toLowerCase(Locale.ROOT).startsWith("http://")) return null;
        String authority = u.substring("http://".length()).split("[/?#]", 2)[0];
        if (!credentials && !authority.contains("@")) return null;
        return "the schema registry's basic-authentication credentials go over plain http (" + urlSetting
                + " is an http:// URL): anyone on the path can read them. Serve the registry over TLS and set "
                + urlSetting + " to its https:// URL";
    }
}
