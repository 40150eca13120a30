package dev.brace.examples.frameworks.retrofit;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.concurrent.CompletableFuture;
import retrofit2.Call;
import retrofit2.CallAdapter;
import retrofit2.HttpException;
import retrofit2.Response;
import retrofit2.Retrofit;

/**
 * Lets a Retrofit method return its body type {@code T}: the call is executed when the method is
 * called, on the caller's thread, so a Brace wrapper around the interface protects the request
 * itself. A 2xx answer returns its body; any other throws {@link HttpException} (which keeps the
 * response, its headers included); an I/O failure throws the {@link IOException}, which the method
 * declares. Methods returning {@code Call} or {@code CompletableFuture} are left to Retrofit's own
 * adapters.
 */
public final class SynchronousCallAdapterFactory extends CallAdapter.Factory {

  private SynchronousCallAdapterFactory() {}

  /** @return the factory, for {@code Retrofit.Builder.addCallAdapterFactory} */
  public static SynchronousCallAdapterFactory create() {
    return new SynchronousCallAdapterFactory();
  }

  @Override
  public CallAdapter<?, ?> get(Type returnType, Annotation[] annotations, Retrofit retrofit) {
    Class<?> raw = getRawType(returnType);
    if (raw == Call.class || raw == CompletableFuture.class) {
      return null;
    }
    return new CallAdapter<Object, Object>() {
      @Override
      public Type responseType() {
        return returnType;
      }

      @Override
      public Object adapt(Call<Object> call) {
        Response<Object> response;
        try {
          response = call.execute();
        } catch (IOException failed) {
          // Checked: adapt cannot declare it, the interface method does, and the proxy passes on
          // what the method declares as it is.
          throw SynchronousCallAdapterFactory.<RuntimeException>sneaky(failed);
        }
        if (!response.isSuccessful()) {
          throw new HttpException(response);
        }
        return response.body();
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable failure) throws T {
    throw (T) failure;
  }
}
