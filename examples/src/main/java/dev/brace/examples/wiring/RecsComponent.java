package dev.brace.examples.wiring;

import dagger.BindsInstance;
import dagger.Component;
import dev.brace.runtime.Registry;
import java.net.URI;
import javax.inject.Singleton;

/** The Dagger component; Dagger generates {@code DaggerRecsComponent}. */
@Singleton
@Component(modules = RecsModule.class)
public interface RecsComponent {

  /** @return the page, its client injected */
  RecommendationsPage page();

  /** Creates the component with the service's address and the registry to use. */
  @Component.Factory
  interface Factory {
    /**
     * @param baseUri where the recommendations service is
     * @param registry usually {@code Registry.defaultRegistry()}; a test passes its own
     * @return the component
     */
    RecsComponent create(@BindsInstance URI baseUri, @BindsInstance Registry registry);
  }
}
