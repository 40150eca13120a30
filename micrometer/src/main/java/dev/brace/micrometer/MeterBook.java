package dev.brace.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Every meter one binding registers, each built on first use and then found without allocating:
 * by a cache name (the meter's name, and what sets it apart from its siblings, e.g. {@code
 * brace.rejections|bulkhead}), then by instance. A keyed family's members share their family's
 * meters unless per-key metrics are asked for. Closing the binding removes them all.
 */
final class MeterBook {
  private static final String NO_KEY = "";

  private final MeterRegistry meters;
  private final boolean perKey;
  /** Every meter registered, by a key of its name and tags, so that {@link #removeAll} finds each once. */
  private final Map<String, Meter> registered = new ConcurrentHashMap<>();
  /** Per cache name, then per instance (a member's family, unless per key): its meter. */
  private final Map<String, Map<String, Meter>> byInstance = new ConcurrentHashMap<>();

  MeterBook(MeterRegistry meters, boolean perKey) {
    this.meters = meters;
    this.perKey = perKey;
  }

  boolean perKey() {
    return perKey;
  }

  /** The meter of one cache name and instance, built on first use; then a lookup without allocation. */
  Meter instanceMeter(String cacheName, String instance, Function<Tags, ?> builder) {
    Map<String, Meter> byName = byInstance.get(cacheName);
    if (byName == null) {
      byName = byInstance.computeIfAbsent(cacheName, k -> new ConcurrentHashMap<>());
    }
    return meterFor(byName, instance, builder);
  }

  /**
   * Kept by family name unless per-key metrics are asked for, so that keys taken from user input
   * grow neither the series nor this cache.
   */
  Meter meterFor(Map<String, Meter> byName, String instance, Function<Tags, ?> builder) {
    String cacheKey = instanceKey(instance);
    Meter meter = byName.get(cacheKey);
    if (meter != null) {
      return meter;
    }
    return byName.computeIfAbsent(cacheKey, k -> register(builder.apply(instanceTags(instance))));
  }

  /** @return what an instance's meters are kept under: its family's name, or with per-key metrics its own */
  String instanceKey(String instance) {
    return perKey ? instance : familyName(instance);
  }

  /** @param builder a {@link Timer.Builder} or {@link Counter.Builder} @return the meter it registered */
  Meter register(Object builder) {
    Meter meter;
    if (builder instanceof Timer.Builder) {
      meter = ((Timer.Builder) builder).register(meters);
    } else if (builder instanceof Counter.Builder) {
      meter = ((Counter.Builder) builder).register(meters);
    } else {
      throw new IllegalArgumentException("not a timer or counter: " + builder);
    }
    // Two instances of one family share a meter; the map keeps one entry per meter.
    registered.putIfAbsent(meter.getId().toString(), meter);
    return meter;
  }

  /**
   * A meter with tags of its own (a gauge, a fault injection's counter), registered once under
   * {@code key} and removed with the rest.
   *
   * @return the meter registered under {@code key}
   */
  Meter registerOnce(String key, Function<MeterRegistry, Meter> register) {
    Meter known = registered.get(key);
    return known != null ? known : registered.computeIfAbsent(key, k -> register.apply(meters));
  }

  void removeAll() {
    registered.values().forEach(meters::remove);
    registered.clear();
    byInstance.clear();
  }

  /** {@code tenant[acme]} is of the family {@code tenant}; a name without a key is its own. */
  static String familyName(String instance) {
    int open = instance.indexOf('[');
    return open > 0 && instance.endsWith("]") ? instance.substring(0, open) : instance;
  }

  /** {@code name} is the family; with per-key metrics a {@code key} tag names the member. */
  Tags instanceTags(String instance) {
    String family = familyName(instance);
    Tags tags = Tags.of("name", family);
    return perKey ? tags.and("key", family.equals(instance) ? NO_KEY : instance.substring(family.length() + 1, instance.length() - 1)) : tags;
  }

  /** The tag an instance-less gauge carries with per-key metrics: no key. */
  static String noKey() {
    return NO_KEY;
  }
}
