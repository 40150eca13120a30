package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.javapoet.ClassName;

/** What the starter tells Spring's ahead-of-time processing, for a native image of the application. */
class BraceRuntimeHintsTest {
  @Test
  void theManifestsAndTheEndpointAreRegistered() {
    RuntimeHints hints = new RuntimeHints();
    new BraceRuntimeHints().registerHints(hints, getClass().getClassLoader());
    assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/brace/instances/p.Catalog")).accepts(hints);
    assertThat(RuntimeHintsPredicates.reflection().onType(BraceEndpoint.class)).accepts(hints);
  }

  @Test
  void aBeanOfAnInterfaceWithAWrapperGetsItsWrapperRegisteredAndAPlainOneNothing() throws NoSuchMethodException {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    beans.registerBeanDefinition("catalog", new RootBeanDefinition(BraceAutoConfigurationTest.FailingCatalog.class));
    beans.registerBeanDefinition("plain", new RootBeanDefinition(StringBuilder.class));
    DefaultGenerationContext generation = new DefaultGenerationContext(
        new ClassNameGenerator(ClassName.get("app", "Application")), new InMemoryGeneratedFiles());
    new BraceWrapperAotProcessor().processAheadOfTime(beans).applyTo(generation, null);

    RuntimeHints hints = generation.getRuntimeHints();
    assertThat(RuntimeHintsPredicates.reflection().onType(ResilientCatalog.class)).accepts(hints);
    assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
        ResilientCatalog.class.getMethod("wrap", Catalog.class, dev.brace.runtime.Registry.class))).accepts(hints);
    assertThat(hints.reflection().typeHints().map(hint -> hint.getType()))
        .containsExactlyInAnyOrder(TypeReference.of(Catalog.class), TypeReference.of(ResilientCatalog.class));
  }

  @Test
  void withoutAWrappableBeanThereIsNothingToContribute() {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    beans.registerBeanDefinition("plain", new RootBeanDefinition(StringBuilder.class));
    assertThat(new BraceWrapperAotProcessor().processAheadOfTime(beans)).isNull();
  }

  /** Spring finds both through the file it reads ahead of time. */
  @Test
  void springFindsThemInAotFactories() throws IOException {
    Properties factories = new Properties();
    try (InputStream in = getClass().getResourceAsStream("/META-INF/spring/aot.factories")) {
      factories.load(in);
    }
    assertThat(factories.getProperty("org.springframework.aot.hint.RuntimeHintsRegistrar"))
        .isEqualTo(BraceRuntimeHints.class.getName());
    assertThat(factories.getProperty("org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor"))
        .isEqualTo(BraceWrapperAotProcessor.class.getName());
  }
}
