package dev.brace.artifacts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * brace-bom has no parent (an imported BOM would bring the parent's third-party pins along), so
 * nothing but this test keeps it in step with the reactor.
 */
class BomIT {

  @Test
  void bomHasTheReactorsVersion() throws Exception {
    Document bom = parse(PublishedArtifacts.root().resolve("bom/pom.xml"));
    assertEquals(
        PublishedArtifacts.version(),
        child(bom.getDocumentElement(), "version").getTextContent().trim(),
        "bom/pom.xml's version: set it with the rest of the reactor (versions:set -DprocessAllModules)");
  }

  @Test
  void bomManagesEveryPublishedArtifactAtTheProjectVersion() throws Exception {
    Document bom = parse(PublishedArtifacts.root().resolve("bom/pom.xml"));
    Element dependencies = child(child(bom.getDocumentElement(), "dependencyManagement"), "dependencies");
    Set<String> managed = new LinkedHashSet<>();
    for (Element dependency : children(dependencies, "dependency")) {
      assertEquals("dev.brace", text(dependency, "groupId"));
      assertEquals("${project.version}", text(dependency, "version"), text(dependency, "artifactId"));
      managed.add(text(dependency, "artifactId"));
    }
    assertEquals(PublishedArtifacts.MODULE_NAMES.keySet(), managed, "bom/pom.xml against the published modules");
  }

  @Test
  void everyReactorModuleIsEitherPublishedOrKnownNotToBe() throws Exception {
    Path root = PublishedArtifacts.root();
    Element modules = child(parse(root.resolve("pom.xml")).getDocumentElement(), "modules");
    List<String> unclassified = new ArrayList<>();
    for (Element module : children(modules, "module")) {
      String folder = module.getTextContent().trim();
      String artifactId = text(parse(root.resolve(folder).resolve("pom.xml")).getDocumentElement(), "artifactId");
      if (!PublishedArtifacts.MODULE_NAMES.containsKey(artifactId)
          && !PublishedArtifacts.NOT_PUBLISHED.contains(artifactId)) {
        unclassified.add(artifactId + " (" + folder + ")");
      }
    }
    assertTrue(
        unclassified.isEmpty(),
        "new modules " + unclassified + ": a published one goes into bom/pom.xml and"
            + " PublishedArtifacts.MODULE_NAMES (with its Automatic-Module-Name), any other into"
            + " PublishedArtifacts.NOT_PUBLISHED");
  }

  private static Document parse(Path pom) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(pom.toFile());
  }

  private static String text(Element parent, String name) {
    return child(parent, name).getTextContent().trim();
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    assertEquals(1, found.size(), "<" + name + "> under <" + parent.getTagName() + ">");
    return found.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element && ((Element) node).getTagName().equals(name)) {
        found.add((Element) node);
      }
    }
    return found;
  }
}
