package dev.brace.runtime.internal.store;

import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.ResilientCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The calls a registry has resolved and that are still in use, with what their sites declared,
 * so a reconfiguration can resolve each again. Held weakly: a wrapper that nobody references any
 * more is forgotten with its calls.
 */
final class LiveCalls {
  private final Map<ResilientCall, CallDefinition> calls = new WeakHashMap<>();

  /** One live call and its definition, held strongly while a reconfiguration works on it. */
  static final class Live {
    final ResilientCall call;
    final CallDefinition definition;

    Live(ResilientCall call, CallDefinition definition) {
      this.call = call;
      this.definition = definition;
    }
  }

  synchronized void add(ResilientCall call, CallDefinition definition) {
    calls.put(call, definition);
  }

  /** @return every call still referenced, in no particular order */
  synchronized List<Live> all() {
    List<Live> all = new ArrayList<>(calls.size());
    calls.forEach((call, definition) -> all.add(new Live(call, definition)));
    return all;
  }
}
