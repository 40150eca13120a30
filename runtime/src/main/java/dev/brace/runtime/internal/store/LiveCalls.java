package dev.brace.runtime.internal.store;

import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.internal.sequence.CallPolicies;
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
  private final Map<ResilientCall, Declared> calls = new WeakHashMap<>();

  /** What a call's site declared, and the policies it runs on now (what it remembers lives there). */
  private static final class Declared {
    final CallDefinition definition;
    volatile CallPolicies policies;

    Declared(CallDefinition definition, CallPolicies policies) {
      this.definition = definition;
      this.policies = policies;
    }
  }

  /** One live call, its definition and its policies, held strongly while a reconfiguration works on it. */
  static final class Live {
    final ResilientCall call;
    final CallDefinition definition;
    final CallPolicies policies;

    Live(ResilientCall call, CallDefinition definition, CallPolicies policies) {
      this.call = call;
      this.definition = definition;
      this.policies = policies;
    }
  }

  synchronized void add(ResilientCall call, CallDefinition definition, CallPolicies policies) {
    calls.put(call, new Declared(definition, policies));
  }

  /** Records the policies a reconfiguration switched the call to. */
  synchronized void switched(ResilientCall call, CallPolicies policies) {
    Declared declared = calls.get(call);
    if (declared != null) {
      declared.policies = policies;
    }
  }

  /** @return every call still referenced, in no particular order */
  synchronized List<Live> all() {
    List<Live> all = new ArrayList<>(calls.size());
    calls.forEach((call, declared) -> all.add(new Live(call, declared.definition, declared.policies)));
    return all;
  }
}
