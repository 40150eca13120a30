package dev.brace.spring;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What the starter reaches at run time that Spring's ahead-of-time processing cannot see by
 * itself, for a native image of the application: the manifest of configured instances the
 * registry reads to catch typos, the endpoint's operations, and the Redis properties the starter
 * binds. The wrappers of the application's beans are registered per bean by {@link
 * BraceWrapperAotProcessor}. Registered through {@code META-INF/spring/aot.factories}.
 */
final class BraceRuntimeHints implements RuntimeHintsRegistrar {
  /** The folder of instance manifests the processor writes, one file per annotated interface. */
  static final String MANIFESTS = "META-INF/brace/instances/*";

  @Override
  public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
    hints.resources().registerPattern(MANIFESTS);
    for (String type : new String[] {"dev.brace.spring.BraceEndpoint", "dev.brace.spring.BraceChaosEndpointExtension"}) {
      hints.reflection().registerType(TypeReference.of(type), MemberCategory.INVOKE_PUBLIC_METHODS);
    }
    hints.reflection().registerType(TypeReference.of("dev.brace.spring.BraceRedisProperties"),
        MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS, MemberCategory.INVOKE_PUBLIC_METHODS);
  }
}
