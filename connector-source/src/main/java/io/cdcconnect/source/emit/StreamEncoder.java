package io.cdcconnect.source.emit;

import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.model.ChangeEvent;

import java.util.List;

/**
 * The encoder of one Kafka partition's event stream (the codec's per-partition contract): returns the messages each
 * event completes, in order, and what is pending on flush. {@link EncodedMessage#events()} tells how many of the
 * events given since the previous message a message completes.
 */
public interface StreamEncoder {

    List<EncodedMessage> encode(String topic, ChangeEvent event);

    List<EncodedMessage> flush();
}
