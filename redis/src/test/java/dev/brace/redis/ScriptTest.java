package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What lets every script run on a Redis Cluster: each touches one key, so one slot and one node. */
class ScriptTest {

  @Test
  void everyScriptTouchesExactlyTheOneKeyItIsGiven() throws Exception {
    List<Script> scripts = new ArrayList<>();
    for (Field field : Script.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == Script.class) {
        scripts.add((Script) field.get(null));
      }
    }
    assertTrue(scripts.size() >= 8, "found the scripts: " + scripts.size());
    Pattern keys = Pattern.compile("KEYS\\[(\\d+)]");
    for (Script script : scripts) {
      TreeSet<String> used = new TreeSet<>();
      Matcher matcher = keys.matcher(script.text);
      while (matcher.find()) {
        used.add(matcher.group(1));
      }
      // A second key would have to share the first one's hash tag ({name}) to stay on its slot.
      assertEquals(List.of("1"), List.copyOf(used), script.name + " uses KEYS " + used);
    }
  }

  /**
   * A native image holds only the resources its metadata names: every script Brace loads, and its
   * preludes, must match the glob brace-redis ships.
   */
  @Test
  void everyScriptFileIsInTheNativeImageMetadata() throws Exception {
    String metadata;
    try (var in = Script.class.getResourceAsStream("/META-INF/native-image/dev.brace/brace-redis/reachability-metadata.json")) {
      metadata = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    assertTrue(metadata.contains("\"glob\": \"dev/brace/redis/*.lua\""), metadata);
    List<String> files = new ArrayList<>(List.of(Script.PRELUDE, Script.CIRCUIT_PRELUDE));
    for (Field field : Script.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == Script.class) {
        files.add(((Script) field.get(null)).name);
      }
    }
    for (String file : files) {
      String path = Script.class.getPackageName().replace('.', '/') + "/" + file;
      assertTrue(path.matches("dev/brace/redis/[^/]*\\.lua"), path + " is not matched by the glob dev/brace/redis/*.lua");
      assertTrue(Script.class.getResource(file) != null, path);
    }
  }
}
