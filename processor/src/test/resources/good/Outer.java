package p;

import dev.brace.Bulkhead;
import dev.brace.Timeout;

public class Outer {
  interface Inner {
    @Bulkhead
    String ping();
  }

  public interface Api {
    interface Deep {
      @Timeout("1s")
      void run();
    }
  }
}
