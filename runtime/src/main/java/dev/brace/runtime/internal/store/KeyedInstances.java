package dev.brace.runtime.internal.store;

import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One instance per key under a name, at most {@code maxKeys} of them. Concurrent first use of a
 * key creates one instance; past the bound the least recently used keys are evicted. Use order is
 * a global counter, not a clock, so it costs no system call.
 *
 * @param <T> the instance type
 */
final class KeyedInstances<T> {
  private final String name;
  private final int maxKeys;
  private final Function<String, T> factory;
  private final ConcurrentHashMap<String, Entry<T>> entries = new ConcurrentHashMap<>();
  private final AtomicLong useCounter = new AtomicLong();

  KeyedInstances(String name, int maxKeys, Function<String, T> factory) {
    this.name = Objects.requireNonNull(name, "name");
    this.maxKeys = maxKeys;
    this.factory = Objects.requireNonNull(factory, "factory");
  }

  T get(String key) {
    if (key == null) {
      throw new IllegalArgumentException("'" + name + "' is keyed but the call gave no key");
    }
    Entry<T> entry = entries.get(key);
    if (entry == null) {
      entry = entries.computeIfAbsent(key, k -> new Entry<>(factory.apply(name + "[" + k + "]")));
      if (entries.size() > maxKeys) {
        evictLeastRecentlyUsed(key);
      }
    }
    entry.lastUse = useCounter.incrementAndGet();
    return entry.instance;
  }

  /** Evicts down to 90% of the bound in one pass, so a stream of new keys does not scan on every call. */
  private synchronized void evictLeastRecentlyUsed(String keep) {
    int target = Math.max(1, maxKeys - Math.max(1, maxKeys / 10));
    if (entries.size() <= maxKeys) {
      return;
    }
    entries.entrySet().stream()
        .filter(e -> !e.getKey().equals(keep))
        .sorted(Comparator.comparingLong(e -> e.getValue().lastUse))
        .limit(Math.max(0, entries.size() - target))
        .map(Map.Entry::getKey)
        .forEach(entries::remove);
  }

  String name() {
    return name;
  }

  int size() {
    return entries.size();
  }

  Map<String, T> snapshot() {
    Map<String, T> copy = new java.util.LinkedHashMap<>();
    entries.forEach((key, entry) -> copy.put(key, entry.instance));
    return copy;
  }

  private static final class Entry<T> {
    final T instance;
    volatile long lastUse;

    Entry(T instance) {
      this.instance = instance;
    }
  }
}
