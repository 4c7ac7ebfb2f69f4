package io.cdcconnect.it;

import org.apache.log4j.Appender;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.Priority;
import org.apache.log4j.spi.LoggingEvent;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything logged in this JVM at INFO and above while open (the embedded broker, the Connect worker, the connectors
 * in their plugin class loaders, Debezium), messages with their stack traces, as a worker's log file would hold it.
 * The console keeps printing WARN and above only, as before.
 */
final class WorkerLogCapture implements AutoCloseable {

    private final List<String> lines = new ArrayList<>();
    private final Logger root = Logger.getRootLogger();
    private final Level rootLevel = root.getLevel();
    private final Map<AppenderSkeleton, Priority> thresholds = new HashMap<>();
    private final AppenderSkeleton appender = new AppenderSkeleton() {
        @Override
        protected void append(LoggingEvent event) {
            StringBuilder sb = new StringBuilder();
            sb.append(event.getLevel()).append(' ').append(event.getLoggerName()).append(": ")
                    .append(event.getRenderedMessage());
            String[] trace = event.getThrowableStrRep();
            if (trace != null) for (String t : trace) sb.append('\n').append(t);
            synchronized (lines) {
                lines.add(sb.toString());
            }
        }

        @Override
        public void close() {
        }

        @Override
        public boolean requiresLayout() {
            return false;
        }
    };

    WorkerLogCapture() {
        for (Enumeration<?> e = root.getAllAppenders(); e.hasMoreElements(); ) {
            Appender a = (Appender) e.nextElement();
            if (a instanceof AppenderSkeleton s) {
                thresholds.put(s, s.getThreshold());
                s.setThreshold(Level.WARN);
            }
        }
        root.setLevel(Level.INFO);
        root.addAppender(appender);
    }

    /** The lines logged so far, one entry per event. */
    List<String> lines() {
        synchronized (lines) {
            return new ArrayList<>(lines);
        }
    }

    @Override
    public void close() {
        root.removeAppender(appender);
        root.setLevel(rootLevel);
        thresholds.forEach(AppenderSkeleton::setThreshold);
    }
}
