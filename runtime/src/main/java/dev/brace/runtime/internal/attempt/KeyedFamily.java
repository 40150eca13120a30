package dev.brace.runtime.internal.attempt;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A shared instance as a call sees it: one instance under a name, or, when its config has a key
 * template, one per key value ({@code name[key]}). The registry's store makes and reshapes families;
 * a call asks one for the instance of its key.
 *
 * @param <T> the instance type
 */
public final class KeyedFamily<T> {
  private final String name;
  private final T single;
  private final KeyedInstances<T> keyed;

  private KeyedFamily(String name, T single, KeyedInstances<T> keyed) {
    this.name = name;
    this.single = single;
    this.keyed = keyed;
  }

  /**
   * @param name the instance's name
   * @param instance the one instance of the name
   * @param <T> the instance type
   * @return a family of one
   * @throws NullPointerException when {@code instance} is null
   */
  public static <T> KeyedFamily<T> of(String name, T instance) {
    return new KeyedFamily<>(name, Objects.requireNonNull(instance, "instance"), null);
  }

  /**
   * @param name the family's name
   * @param maxKeys the most members kept
   * @param create makes the member named {@code name[key]}
   * @param busy whether a member should outlive idle ones when the family is full
   * @param <T> the instance type
   * @return a family of one instance per key
   * @throws NullPointerException when {@code name}, {@code create} or {@code busy} is null
   */
  public static <T> KeyedFamily<T> keyed(String name, int maxKeys, Function<String, T> create, Predicate<T> busy) {
    return new KeyedFamily<>(name, null, new KeyedInstances<>(name, maxKeys, create, busy));
  }

  /**
   * @param key the call's key; ignored when the family is one instance
   * @return the instance for that key
   * @throws IllegalArgumentException when the family is keyed and {@code key} is null
   */
  public T forKey(String key) {
    return single != null ? single : keyed.get(key);
  }

  /** @return the family's name, without a key */
  public String name() {
    return name;
  }

  /** @return whether it is one instance per key */
  public boolean isKeyed() {
    return keyed != null;
  }

  /**
   * Gives the family new settings: the one instance, or every member and every member to come.
   *
   * @param maxKeys the most members a keyed family keeps from now on
   * @param factory makes a keyed member, by its {@code name[key]}, with the new settings
   * @param reshape gives an existing instance, by its name ({@code name[key]} for a member), the new settings
   */
  public void reshape(int maxKeys, Function<String, T> factory, BiConsumer<String, T> reshape) {
    if (single != null) {
      reshape.accept(name, single);
    } else {
      keyed.reshape(maxKeys, factory, reshape);
    }
  }

  /** @return every instance of the family: the one, or each member kept now */
  public Collection<T> instances() {
    return single != null ? List.of(single) : keyed.snapshot().values();
  }

  /** @return the one instance, or null for a keyed family */
  public T single() {
    return single;
  }

  /** @return the members by key; empty for a family of one */
  public Map<String, T> members() {
    return keyed == null ? Map.of() : keyed.snapshot();
  }
}
