package io.cdcconnect.sink.txn;

/** Pauses and resumes the consumption of partitions (Connect's task context); {@link #NONE} where there is none. */
public interface PartitionControl {

    PartitionControl NONE = new PartitionControl() {
        @Override
        public void pause(SourcePartition p) {
        }

        @Override
        public void resume(SourcePartition p) {
        }
    };

    void pause(SourcePartition p);

    void resume(SourcePartition p);
}
