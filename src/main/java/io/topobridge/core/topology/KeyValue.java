package io.topobridge.core.topology;

/** A (label key, domain value) pair; a domain's identity is the chain of these from the top. */
record KeyValue(String key, String value) {}
