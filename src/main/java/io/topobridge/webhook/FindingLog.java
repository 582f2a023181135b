package io.topobridge.webhook;

import io.topobridge.core.finding.Finding;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Logs what admission noticed once per finding {@link Finding#id() identity}, whatever its message: the pods of
 * one workload share a name prefix, so a misconfigured Deployment of a hundred pods gives one line, not a
 * hundred.
 */
final class FindingLog {

    private static final int REMEMBERED = 4096;

    private final Logger log;
    private final Set<Finding.Id> seen = Collections.newSetFromMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Finding.Id, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    });

    FindingLog(Logger log) {
        this.log = log;
    }

    void log(Finding finding) {
        synchronized (seen) {
            if (!seen.add(finding.id())) {
                return;
            }
        }
        String line = finding.line();
        switch (finding.severity()) {
            case INFO -> log.info(line);
            case WARNING, REJECTED -> log.warn(line);
        }
    }
}
