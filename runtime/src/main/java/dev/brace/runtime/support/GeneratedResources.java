package dev.brace.runtime.support;

/**
 * Where the processor writes the resources the registry reads at run time: the two sides of one
 * contract, named once.
 */
public final class GeneratedResources {
  /**
   * The folder of the instance lists: one file per wrapped interface, named by its binary name,
   * with one line {@code <kind> <name>} per instance its wrapper uses. The registry reads them all
   * to tell a configuration key that names nothing (a typo) from one that names an instance not
   * created yet.
   */
  public static final String INSTANCE_LISTS = "META-INF/brace/instances/";

  private GeneratedResources() {}
}
