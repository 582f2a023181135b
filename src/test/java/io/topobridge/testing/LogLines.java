package io.topobridge.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/** A log handler keeping the formatted messages logged at or above a level, for tests of what the bridge logs. */
public final class LogLines extends Handler {

    private final Level least;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    public LogLines(Level least) {
        this.least = least;
    }

    /** The messages kept so far, in order; the list grows as lines are logged. */
    public List<String> lines() {
        return lines;
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= least.intValue()) {
            lines.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
