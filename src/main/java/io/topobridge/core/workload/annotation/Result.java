package io.topobridge.core.workload.annotation;

import io.topobridge.core.workload.WorkloadReason;
import java.util.function.Function;

/** A parsed annotation value, or why it is invalid (the message, without the object and key). */
record Result<T>(T value, String error, WorkloadReason reason) {
    static <T> Result<T> ok(T value) {
        return new Result<>(value, null, null);
    }

    static <T> Result<T> error(String error) {
        return new Result<>(null, error, WorkloadReason.INVALID_ANNOTATION);
    }

    /** A tier that cannot be resolved yet because no tier is known at all (not a mistake of the user's). */
    static <T> Result<T> tiersUnknown(String error) {
        return new Result<>(null, error, WorkloadReason.TIERS_UNKNOWN);
    }

    <U> Result<U> map(Function<T, U> f) {
        return error == null ? ok(f.apply(value)) : new Result<>(null, error, reason);
    }
}
