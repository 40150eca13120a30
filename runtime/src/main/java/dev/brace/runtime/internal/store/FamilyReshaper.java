package dev.brace.runtime.internal.store;

import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.internal.attempt.KeyedFamily;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * How a breaker or limiter family takes new settings: the one instance, or every member kept now
 * under its own {@code name[key]}, and every member made from then on. An instance that cannot take
 * new settings while it runs (a backend's that does not support it) refuses the change for the family.
 *
 * @param <T> the instance type
 */
final class FamilyReshaper<T> implements SharedInstances.Reshaper<KeyedFamily<T>> {
  private final Predicate<T> reconfigurable;
  private final BiConsumer<T, InstanceConfig> reconfigure;
  private final BiFunction<InstanceConfig, String, InstanceConfig> member;
  private final Function<InstanceConfig, Function<InstanceConfig, T>> maker;
  private final ToIntFunction<InstanceConfig> maxKeys;

  /**
   * @param reconfigurable whether an instance takes new settings while it runs
   * @param reconfigure gives an instance new settings
   * @param member the settings of the member {@code name[key]}, from the family's
   * @param maker what makes instances of the given settings (local or a backend's)
   * @param maxKeys the family's bound on members, from its settings
   */
  FamilyReshaper(
      Predicate<T> reconfigurable,
      BiConsumer<T, InstanceConfig> reconfigure,
      BiFunction<InstanceConfig, String, InstanceConfig> member,
      Function<InstanceConfig, Function<InstanceConfig, T>> maker,
      ToIntFunction<InstanceConfig> maxKeys) {
    this.reconfigurable = Objects.requireNonNull(reconfigurable, "reconfigurable");
    this.reconfigure = Objects.requireNonNull(reconfigure, "reconfigure");
    this.member = Objects.requireNonNull(member, "member");
    this.maker = Objects.requireNonNull(maker, "maker");
    this.maxKeys = Objects.requireNonNull(maxKeys, "maxKeys");
  }

  @Override
  public String refusal(KeyedFamily<T> family, InstanceConfig settings) {
    for (T instance : family.instances()) {
      if (!reconfigurable.test(instance)) {
        return "its state is kept by " + instance.getClass().getName()
            + ", which cannot take new settings while it runs; they apply to a registry built with them";
      }
    }
    return null;
  }

  @Override
  public void apply(KeyedFamily<T> family, InstanceConfig settings) {
    Function<InstanceConfig, T> make = maker.apply(settings);
    family.reshape(
        maxKeys.applyAsInt(settings),
        name -> make.apply(member.apply(settings, name)),
        (name, instance) -> reconfigure.accept(instance, name.equals(settings.name()) ? settings : member.apply(settings, name)));
  }
}
