package io.cdcconnect.sink.validate;

/**
 * One finding of validation: the setting it is reported on and what is wrong, with how to fix it. The message never
 * carries a password or a URL that may hold one.
 */
public record ConfigProblem(String setting, String message) {
}
