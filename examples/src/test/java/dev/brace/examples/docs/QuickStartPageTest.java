package dev.brace.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The Spring Boot quick start's {@code pom.xml}, which no build runs as it stands, names what the
 * build that runs the page's application (examples-spring) uses: the Spring Boot version, every
 * other dependency, Brace's artifacts (each one the BOM publishes) at the project's version, the
 * processor on the processor path, the Java release.
 */
class QuickStartPageTest {
  private static final Path ROOT = RepositoryFiles.root();
  private static final String PAGE = "docs/guide/spring-boot-quick-start.md";
  private static Document pagePom;
  private static Document examplesPom;
  private static Document rootPom;
  private static Document bom;

  @BeforeAll
  static void read() throws Exception {
    pagePom = parse(firstXmlBlock(Files.readString(ROOT.resolve(PAGE), StandardCharsets.UTF_8)));
    examplesPom = parse(Files.readString(ROOT.resolve("examples-spring/pom.xml"), StandardCharsets.UTF_8));
    rootPom = parse(Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8));
    bom = parse(Files.readString(ROOT.resolve("bom/pom.xml"), StandardCharsets.UTF_8));
  }

  @Test
  void theParentIsSpringBootsAtTheVersionTheExampleBuildsOn() {
    Element parent = child(pagePom.getDocumentElement(), "parent");
    assertEquals("org.springframework.boot:spring-boot-starter-parent", text(parent, "groupId") + ":" + text(parent, "artifactId"));
    assertEquals(property(examplesPom, "spring-boot.version"), text(parent, "version"));
  }

  @Test
  void braceArtifactsArePublishedOnesAtTheProjectsVersion() {
    assertEquals(text(rootPom.getDocumentElement(), "version"), property(pagePom, "brace.version"));
    Set<String> published = coordinates(bom.getElementsByTagName("dependency"));
    List<Element> brace = new ArrayList<>();
    for (Element dependency : elements(pagePom.getElementsByTagName("dependency"))) {
      if (text(dependency, "groupId").equals("dev.brace")) {
        brace.add(dependency);
      }
    }
    assertEquals(2, brace.size(), "the starter and brace-micrometer");
    for (Element dependency : brace) {
      String coordinates = "dev.brace:" + text(dependency, "artifactId");
      assertTrue(published.contains(coordinates), coordinates + " is not in bom/pom.xml: " + published);
      assertEquals("${brace.version}", text(dependency, "version"), coordinates);
    }
  }

  @Test
  void everyOtherDependencyIsOneTheExampleBuildUses() {
    Set<String> used = coordinates(child(examplesPom.getDocumentElement(), "dependencies").getElementsByTagName("dependency"));
    for (Element dependency : elements(pagePom.getElementsByTagName("dependency"))) {
      String coordinates = text(dependency, "groupId") + ":" + text(dependency, "artifactId");
      assertTrue(used.contains(coordinates), coordinates + " is not a dependency of examples-spring/pom.xml, which runs the page's code");
      if (!coordinates.startsWith("dev.brace:")) {
        assertEquals("", text(dependency, "version"), coordinates + ": Spring Boot's parent manages the version");
      }
    }
  }

  @Test
  void theProcessorIsOnTheProcessorPathAndTheReleaseIsTheProjects() {
    Set<String> paths = coordinates(pagePom.getElementsByTagName("path"));
    assertEquals(Set.of("dev.brace:brace-processor"), paths);
    assertEquals(property(rootPom, "maven.compiler.release"), property(pagePom, "java.version"));
  }

  private static String firstXmlBlock(String page) {
    Matcher block = Pattern.compile("(?s)```xml\\n(<\\?xml.*?)\\n```").matcher(page);
    assertTrue(block.find(), PAGE + " has no ```xml block holding a whole pom.xml");
    return block.group(1);
  }

  private static Document parse(String xml) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
  }

  private static String property(Document pom, String name) {
    return text(child(pom.getDocumentElement(), "properties"), name);
  }

  private static Set<String> coordinates(NodeList dependencies) {
    Set<String> coordinates = new LinkedHashSet<>();
    for (Element dependency : elements(dependencies)) {
      coordinates.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId"));
    }
    return coordinates;
  }

  private static List<Element> elements(NodeList nodes) {
    List<Element> elements = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      elements.add((Element) nodes.item(i));
    }
    return elements;
  }

  /** @return the direct child of that name */
  private static Element child(Element parent, String name) {
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        return element;
      }
    }
    throw new AssertionError("<" + parent.getTagName() + "> has no <" + name + ">");
  }

  /** @return the text of the direct child of that name, or "" when there is none */
  private static String text(Element parent, String name) {
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        return element.getTextContent().trim();
      }
    }
    return "";
  }
}
