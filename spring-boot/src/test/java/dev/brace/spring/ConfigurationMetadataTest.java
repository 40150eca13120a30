package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The starter's {@code META-INF/spring-configuration-metadata.json}, which IDEs read to complete
 * {@code brace.…} keys in application.yml, is generated from the configuration reference
 * (docs/configuration.md, whose tables {@code ConfigurationReferenceTest} checks against the code),
 * so it lists every pattern's properties and cannot drift. Instance names are the application's, so
 * each kind is a map from {@code <name>.<property>} to a value, and its keys are offered as
 * {@code {name}.<property>} hints. After a change to the reference, regenerate the file with {@code
 * -Dbrace.metadata.write=true}.
 */
class ConfigurationMetadataTest {
  private static final Path REFERENCE = Path.of("..", "docs", "configuration.md");
  private static final Path METADATA = Path.of("src", "main", "resources", "META-INF", "spring-configuration-metadata.json");
  private static final Pattern SECTION = Pattern.compile("^## ([a-z]+) \\(`[A-Z]+`, `brace\\.[a-z]+\\.`\\)(.*)$");
  private static final Pattern ROW = Pattern.compile("^\\| (\\w+) \\| `_\\w+` \\| `\\.([a-z-]+)` \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\|$");

  @Test
  void theMetadataListsEveryPropertyOfTheReference() throws IOException {
    String generated = generate(Files.readAllLines(REFERENCE, StandardCharsets.UTF_8));
    if (Boolean.getBoolean("brace.metadata.write")) {
      Files.writeString(METADATA, generated, StandardCharsets.UTF_8);
    }
    assertThat(Files.readString(METADATA, StandardCharsets.UTF_8))
        .as("%s is generated from %s: rerun this test with -Dbrace.metadata.write=true", METADATA, REFERENCE)
        .isEqualTo(generated);
  }

  @Test
  void everyKindOfTheReferenceIsThere() throws IOException {
    String metadata = Files.readString(METADATA, StandardCharsets.UTF_8);
    for (String kind : List.of("retry", "circuitbreaker", "ratelimit", "bulkhead", "timeout", "fallback", "retrybudget", "chaos")) {
      assertThat(metadata).contains("\"name\": \"brace." + kind + "\"", "\"name\": \"brace." + kind + ".keys\"");
    }
    assertThat(metadata).contains("{name}.failure-rate", "{name}.max-concurrent", "{name}.duration");
  }

  /**
   * {@code brace.redis.*} are written above by hand, not read from the reference: each of them must
   * be a property {@link BraceRedisProperties} binds, with the default it binds when none is given.
   */
  @Test
  void theRedisKeysAreThoseTheStarterBindsWithTheirDefaults() throws Exception {
    BraceRedisProperties defaults = new BraceRedisProperties();
    Pattern entry = Pattern.compile("\"name\": \"brace\\.redis\\.([a-z-]+)\",\\s*\"type\": \"[^\"]+\",\\s*"
        + "\"sourceType\": \"[^\"]+\",\\s*\"defaultValue\": \"?([^\",]*)\"?,");
    Matcher listed = entry.matcher(Files.readString(METADATA, StandardCharsets.UTF_8));
    List<String> names = new ArrayList<>();
    while (listed.find()) {
      String name = listed.group(1);
      names.add(name);
      StringBuilder getter = new StringBuilder();
      for (String part : name.split("-")) {
        getter.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
      }
      java.lang.reflect.Method read;
      try {
        read = BraceRedisProperties.class.getMethod("get" + getter);
      } catch (NoSuchMethodException notGet) {
        read = BraceRedisProperties.class.getMethod("is" + getter);
      }
      Object bound = new org.springframework.boot.context.properties.bind.Binder(
              new org.springframework.boot.context.properties.source.MapConfigurationPropertySource(
                  java.util.Map.of("brace.redis." + name, listed.group(2))))
          .bind("brace.redis", BraceRedisProperties.class).get();
      assertThat(read.invoke(bound)).as("brace.redis.%s's listed default", name).isEqualTo(read.invoke(defaults));
    }
    assertThat(names).containsExactlyInAnyOrder(
        "enabled", "backend-name", "command-timeout", "when-unavailable", "recheck-interval", "probe-lease", "key-prefix");
  }

  static String generate(List<String> reference) {
    List<String> properties = new ArrayList<>();
    List<String> hints = new ArrayList<>();
    properties.add(property("brace.enabled", "java.lang.Boolean", "true",
        "Whether Brace applies its patterns at all; false makes every wrapper a pure pass-through, fallbacks included."));
    properties.add(property("brace.strict-configuration", "java.lang.Boolean", "false",
        "Whether a brace.* key that configures nothing (a typo) stops the start, and refuses a reconfiguration, instead of a warning."));
    properties.add(property("brace.spring.auto-wrap", "java.lang.Boolean", "true",
        "Whether every bean implementing an interface with a generated Resilient<Interface> is wrapped in it."));
    properties.add(property("brace.processor-missing", "java.lang.String", "\"fail\"",
        "What a bean whose interface carries Brace's annotations but has no generated wrapper (brace-processor did not run) does: fail stops the start with [brace:processor-missing], warn logs it once per interface and leaves the bean unprotected."));
    properties.add(property("brace.health.open-breaker-down", "java.lang.Boolean", "false",
        "Whether an OPEN circuit breaker makes the 'brace' health indicator OUT_OF_SERVICE (else it stays UP, with the breaker's state in its details)."));
    properties.add(property("brace.health.backend-down", "java.lang.Boolean", "false",
        "Whether the backends' health (braceBackends, DOWN during an outage, in the group brace-backends) is also part of the application's own, so an outage makes /actuator/health DOWN (else it stays UP)."));
    properties.addAll(redisProperties());
    properties.add(property("brace.deadline.enabled", "java.lang.Boolean", "true",
        "Whether calls take part in deadlines: bounded by the deadline they run under, passing their own bounds on to the calls they make."));
    properties.add(property("brace.deadline.header", "java.lang.String", null,
        "A request header carrying the milliseconds a request has left (e.g. Request-Timeout, x-envoy-expected-rq-timeout-ms): each incoming request that carries it runs under that deadline, and requests sent through RestClient and WebClient inside a call with a deadline carry what is left of it. Off unless set."));
    properties.add(property("brace.chaos.enabled", "java.lang.Boolean", "false",
        "Whether fault injection may inject at all; without it no brace.chaos.<name>.* setting has any effect."));
    properties.add(property("brace.chaos.actuator", "java.lang.Boolean", "false",
        "Whether POST /actuator/brace/chaos/{name} exists, to turn a fault injection on or off on a running service (it acts only while brace.chaos.enabled is true)."));
    String kind = null;
    String naming = null;
    List<String> values = new ArrayList<>();
    for (String line : reference) {
      Matcher section = SECTION.matcher(line);
      if (section.matches()) {
        if (kind != null) {
          hints.add(hint(kind, values));
        }
        kind = section.group(1);
        naming = section.group(2).replaceFirst("^ — ", "").replace("`", "").trim();
        values = new ArrayList<>();
        properties.add(property("brace." + kind, "java.util.Map<java.lang.String,java.lang.String>", null,
            "Settings of " + kind + " instances by name: brace." + kind + ".<name>.<property>"
                + (naming.isEmpty() ? "" : " (" + naming + ")") + "."));
        continue;
      }
      Matcher row = ROW.matcher(line);
      if (kind != null && row.matches() && !row.group(1).equals("attribute")) {
        String description = row.group(3).trim() + "; default " + row.group(4).trim() + "; accepted: " + row.group(5).trim();
        values.add("        {\n          \"value\": \"{name}." + row.group(2) + "\",\n          \"description\": "
            + quote(description.replace("`", "")) + "\n        }");
      }
    }
    if (kind != null) {
      hints.add(hint(kind, values));
    }
    return "{\n  \"groups\": [\n    {\n      \"name\": \"brace\",\n      \"description\": "
        + quote("Brace: settings of named instances, the same keys as its system properties (see docs/configuration.md).")
        + "\n    },\n    {\n      \"name\": \"brace.redis\",\n      \"type\": \"dev.brace.spring.BraceRedisProperties\",\n"
        + "      \"sourceType\": \"dev.brace.spring.BraceRedisProperties\",\n      \"description\": "
        + quote("The Redis backend the starter makes from the application's Spring Data Redis connection (with brace-redis).")
        + "\n    }\n  ],\n  \"properties\": [\n" + String.join(",\n", properties) + "\n  ],\n  \"hints\": [\n"
        + String.join(",\n", hints) + ",\n" + WHEN_UNAVAILABLE_HINT + "\n  ]\n}\n";
  }

  private static final String WHEN_UNAVAILABLE_HINT = "    {\n      \"name\": \"brace.redis.when-unavailable\",\n      \"values\": [\n"
      + "        {\n          \"value\": \"local\",\n          \"description\": "
      + quote("Decide with state kept in this JVM (each machine then has its own quota and circuit).") + "\n        },\n"
      + "        {\n          \"value\": \"refuse\",\n          \"description\": "
      + quote("Refuse every call with RateLimitedException or CircuitOpenException.") + "\n        }\n      ]\n    }";

  /** The starter's {@code brace.redis.*}, as {@link BraceRedisProperties} binds them, with its defaults. */
  private static List<String> redisProperties() {
    String source = "dev.brace.spring.BraceRedisProperties";
    return List.of(
        redisProperty("enabled", "java.lang.Boolean", "true", source,
            "Whether the starter makes a Redis backend from the application's Spring Data Redis connection, when brace-redis is there."),
        redisProperty("backend-name", "java.lang.String", "\"redis\"", source,
            "The name instances' backend setting gives it (brace.ratelimit.<name>.backend)."),
        redisProperty("command-timeout", "java.time.Duration", "\"50ms\"", source,
            "The longest one script may take before the call goes on without Redis."),
        redisProperty("when-unavailable", "dev.brace.redis.RedisBackendOptions$WhenUnavailable", "\"local\"", source,
            "What an instance does while Redis cannot be reached: local (decide with local state) or refuse."),
        redisProperty("recheck-interval", "java.time.Duration", "\"1s\"", source,
            "While Redis is unavailable, how often one call tries it again; the others go straight to the fallback."),
        redisProperty("probe-lease", "java.time.Duration", "\"30s\"", source,
            "How long a HALF_OPEN probe holds the circuit's single probe slot; a prober that crashed frees it after this."),
        redisProperty("key-prefix", "java.lang.String", "\"brace:\"", source,
            "Put before every key: brace:ratelimit:<name>, brace:circuit:<name>."));
  }

  private static String redisProperty(String name, String type, String defaultValue, String source, String description) {
    return "    {\n      \"name\": \"brace.redis." + name + "\",\n      \"type\": \"" + type + "\",\n"
        + "      \"sourceType\": \"" + source + "\",\n"
        + "      \"defaultValue\": " + defaultValue + ",\n"
        + "      \"description\": " + quote(description) + "\n    }";
  }

  private static String property(String name, String type, String defaultValue, String description) {
    return "    {\n      \"name\": \"" + name + "\",\n      \"type\": \"" + type + "\",\n"
        + (defaultValue == null ? "" : "      \"defaultValue\": " + defaultValue + ",\n")
        + "      \"description\": " + quote(description) + "\n    }";
  }

  private static String hint(String kind, List<String> values) {
    return "    {\n      \"name\": \"brace." + kind + ".keys\",\n      \"values\": [\n" + String.join(",\n", values) + "\n      ]\n    }";
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
