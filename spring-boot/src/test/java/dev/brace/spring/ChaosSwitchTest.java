package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brace.runtime.Registry;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Fault injection in a Spring Boot application: its settings from the environment like every
 * other, and the actuator's switch, which exists only with {@code brace.chaos.actuator=true} and acts
 * only while fault injection is switched on.
 */
class ChaosSwitchTest {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BraceAutoConfiguration.class, BraceActuatorAutoConfiguration.class))
      .withUserConfiguration(BraceAutoConfigurationTest.PlainBean.class)
      .withPropertyValues("management.endpoints.web.exposure.include=brace");

  @Test
  void settingsInTheEnvironmentInjectWithoutCallingTheDependency() {
    runner.withPropertyValues("brace.chaos.enabled=true", "brace.chaos.catalog-api.fault-rate=1").run(context -> {
      assertThatThrownBy(() -> context.getBean(Catalog.class).item("lamp"))
          .isInstanceOf(IOException.class).hasMessageContaining("injected by Brace's fault injection 'catalog-api'");
      assertThat(BraceAutoConfigurationTest.PlainBean.latest.calls.get()).as("the dependency was not called").isZero();
      assertThat(context.getBean(Registry.class).names().get("chaos")).containsExactly("catalog-api");
      assertThat(context.getBean(BraceEndpoint.class).instances().get("chaos").toString())
          .contains("catalog-api={kind=chaos").contains("faultRate=1.0");
    });
  }

  @Test
  void theStartersOwnSwitchIsNoSettingOfTheRegistry() {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    environment.getPropertySources().addFirst(new MapPropertySource("test", Map.of(
        "brace.chaos.actuator", "true", "BRACE_CHAOS_ACTUATOR", "true", "brace.chaos.enabled", "true")));
    SpringEnvironmentLayers layers = SpringEnvironmentLayers.read(environment);
    assertThat(layers.systemProperties()).containsOnlyKeys("brace.chaos.enabled");
    assertThat(layers.environment()).doesNotContainKey("BRACE_CHAOS_ACTUATOR");
  }

  @Test
  void withoutBraceChaosActuatorTheOperationDoesNotExist() {
    runner.withPropertyValues("brace.chaos.enabled=true")
        .run(context -> assertThat(context).doesNotHaveBean(BraceChaosEndpointExtension.class));
    runner.withPropertyValues("brace.chaos.actuator=true")
        .run(context -> assertThat(context).hasSingleBean(BraceChaosEndpointExtension.class));
  }

  @Test
  void whileFaultInjectionIsSwitchedOffTheSwitchRefusesAndChangesNothing() {
    runner.withPropertyValues("brace.chaos.actuator=true").run(context -> {
      WebEndpointResponse<Map<String, Object>> refused = context.getBean(BraceChaosEndpointExtension.class)
          .chaos("chaos", "catalog-api", "1", null, null, null, null, null);
      assertThat(refused.getStatus()).isEqualTo(409);
      assertThat(refused.getBody().get("message").toString()).contains("brace.chaos.enabled");
      assertThatThrownBy(() -> context.getBean(Catalog.class).item("lamp")).hasMessage("down");
    });
  }

  @Test
  void theSwitchTurnsAnInjectionOnAndOffAndRefusesABadSettingWithoutChangingAnything() {
    runner.withPropertyValues("brace.chaos.actuator=true", "brace.chaos.enabled=true",
        "brace.circuitbreaker.catalog-api.failure-threshold=100").run(context -> {
      BraceChaosEndpointExtension chaos = context.getBean(BraceChaosEndpointExtension.class);
      Catalog catalog = context.getBean(Catalog.class);
      assertThatThrownBy(() -> catalog.item("lamp")).hasMessage("down");

      WebEndpointResponse<Map<String, Object>> on = chaos.chaos("chaos", "catalog-api", "1",
          "java.net.SocketTimeoutException", null, null, "42", null);
      assertThat(on.getStatus()).isEqualTo(200);
      assertThat(on.getBody()).containsEntry("active", true);
      assertThat(on.getBody().get("settings").toString()).contains("fault=java.net.SocketTimeoutException", "seed=42");
      int calls = BraceAutoConfigurationTest.PlainBean.latest.calls.get();
      assertThatThrownBy(() -> catalog.item("lamp")).isInstanceOf(java.net.SocketTimeoutException.class);
      assertThat(BraceAutoConfigurationTest.PlainBean.latest.calls.get()).isEqualTo(calls);

      WebEndpointResponse<Map<String, Object>> refused = chaos.chaos("chaos", "catalog-api", "2", null, null, null, null, null);
      assertThat(refused.getStatus()).isEqualTo(400);
      assertThat(refused.getBody().get("message").toString()).contains("brace.chaos.catalog-api.fault-rate=2");
      assertThat(context.getBean(Registry.class).settings("chaos", "catalog-api")).containsEntry("faultRate", "1.0");

      WebEndpointResponse<Map<String, Object>> off = chaos.chaos("chaos", "catalog-api", null, null, null, null, null, false);
      assertThat(off.getBody()).containsEntry("active", false);
      assertThatThrownBy(() -> catalog.item("lamp")).hasMessage("down");
      assertThatThrownBy(() -> chaos.chaos("circuitbreaker", "catalog-api", null, null, null, null, null, null))
          .isInstanceOf(InvalidEndpointRequestException.class);
    });
  }
}
