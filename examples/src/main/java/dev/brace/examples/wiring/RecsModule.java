package dev.brace.examples.wiring;

import dagger.Module;
import dagger.Provides;
import dev.brace.examples.HttpRecsClient;
import dev.brace.examples.RecsClient;
import dev.brace.examples.ResilientRecsClient;
import dev.brace.runtime.Registry;
import java.net.URI;
import java.net.http.HttpClient;
import javax.inject.Singleton;

/**
 * The one provider method a Dagger user writes: it wraps the plain client in the generated
 * wrapper. Dagger and Brace both generate their code during {@code javac}; nothing is reflective
 * at run time.
 */
@Module
public interface RecsModule {

  /**
   * @param baseUri where the service is, bound when the component is created
   * @param registry the registry whose breakers, limiters and bulkheads the wrapper shares, bound
   *     when the component is created ({@code Registry.defaultRegistry()} in most applications)
   * @return the resilient client, one per component
   */
  @Provides
  @Singleton
  static RecsClient recsClient(URI baseUri, Registry registry) {
    HttpClient http = HttpRecsClient.defaultHttpClient();
    return ResilientRecsClient.wrap(new HttpRecsClient(http, baseUri), registry);
  }
}
