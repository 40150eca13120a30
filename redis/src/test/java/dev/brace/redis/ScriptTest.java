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
}
