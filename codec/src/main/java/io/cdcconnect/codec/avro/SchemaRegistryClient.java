package io.cdcconnect.codec.avro;

import org.apache.avro.Schema;

/**
 * A Confluent-compatible schema registry, as the Avro encoder and decoder need it. Implementations cache: a schema
 * id never changes meaning, so each id and each (subject, schema) pair is asked for once.
 * Failures name the registry (without credentials) and the subject or id: a
 * {@link io.cdcconnect.codec.UnavailableException} when the registry cannot be reached, fails (5xx) or refuses the
 * credentials, a {@link io.cdcconnect.codec.CodecException} when it answers that what was asked is wrong or unknown.
 */
public interface SchemaRegistryClient extends AutoCloseable {

    /**
     * Registers a schema under a subject ({@code POST /subjects/{subject}/versions}) and returns its id. Registering
     * a schema the subject already has returns the existing id.
     *
     * @param subject    e.g. {@code my_topic-value}
     * @param schemaJson the schema text as it should be stored
     * @param schema     the same schema, parsed (cached for decoding under the returned id)
     */
    int register(String subject, String schemaJson, Schema schema);

    /** The schema with the given id ({@code GET /schemas/ids/{id}}). */
    Schema schemaById(int id);

    /** Where the registry is, for messages: never with credentials. */
    String describe();

    @Override
    default void close() {
    }
}
