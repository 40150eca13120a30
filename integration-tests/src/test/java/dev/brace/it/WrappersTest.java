package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Brace;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import java.io.IOException;
import dev.brace.runtime.support.WrapperFactory;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Generated wrappers for each pattern and every interface shape a user may write. */
class WrappersTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();

  /** A fake Recs whose behaviour each test scripts. */
  private static class FakeRecs implements Clients.Recs {
    final AtomicInteger calls = new AtomicInteger();
    IOException failure;
    String lookupResult = "";

    @Override
    public List<String> recommendations(String userId) throws IOException {
      calls.incrementAndGet();
      if (failure != null) {
        throw failure;
      }
      return List.of("a", "b");
    }

    @Override
    public List<String> trending(int limit) throws IOException {
      calls.incrementAndGet();
      throw new IOException("trending down");
    }

    @Override
    public String profile(String userId) throws IOException {
      calls.incrementAndGet();
      if (failure != null) {
        throw failure;
      }
      throw new IllegalStateException("bug");
    }

    @Override
    public String lookup(String key) {
      calls.incrementAndGet();
      return calls.get() < 3 ? "" : lookupResult;
    }

    @Override
    public void record(String event) throws IOException {
      calls.incrementAndGet();
      if (failure != null) {
        throw failure;
      }
    }

    @Override
    public int count() {
      return calls.incrementAndGet();
    }

    @Override
    public String toString() {
      return "FakeRecs";
    }
  }

  @Test
  void fallbackWithTheCauseAnswersAfterTheRetriesRunOut() throws IOException {
    FakeRecs fake = new FakeRecs();
    fake.failure = new IOException("down");
    Clients.Recs recs = ResilientClients_Recs.wrap(fake, registry);

    assertEquals(List.of("fallback for u1 after IOException"), recs.recommendations("u1"));
    assertEquals(3, fake.calls.get());
  }

  @Test
  void staticFallbackWithoutTheCause() throws IOException {
    FakeRecs fake = new FakeRecs();
    Clients.Recs recs = ResilientClients_Recs.wrap(fake, registry);

    assertEquals(List.of("cached:7"), recs.trending(7));
  }

  @Test
  void fallbackOnlyAnswersItsOwnFailures() throws IOException {
    FakeRecs fake = new FakeRecs();
    Clients.Recs recs = ResilientClients_Recs.wrap(fake, registry);

    assertThrows(IllegalStateException.class, () -> recs.profile("u"));
    fake.failure = new IOException("offline");
    assertEquals("offline profile", recs.profile("u"));
  }

  @Test
  void checkedExceptionsArriveAsThemselves() {
    FakeRecs fake = new FakeRecs();
    IOException failure = new IOException("down");
    fake.failure = failure;
    Clients.Recs recs = ResilientClients_Recs.wrap(fake, registry);

    IOException thrown = assertThrows(IOException.class, () -> recs.record("e"));

    assertSame(failure, thrown);
    assertEquals(3, fake.calls.get(), "type-level @Retry applies to record()");
  }

  @Test
  void aVoidMethodThatReturnsCallsItsDelegateOnce() throws IOException {
    FakeRecs fake = new FakeRecs();
    Clients.Recs recs = ResilientClients_Recs.wrap(fake, registry);

    recs.record("e");

    assertEquals(1, fake.calls.get(), "returned from the attempt admitted at once, not staged again");
  }

  @Test
  void methodLevelRetryReplacesTypeLevelAndRetriesResults() {
    FakeRecs fake = new FakeRecs();
    fake.lookupResult = "found";
    Clients.Recs recs = ResilientClients_Recs.wrap(fake, registry);

    assertEquals("found", recs.lookup("k"));
    assertEquals(3, fake.calls.get());
  }

  @Test
  void objectMethodsDelegate() {
    FakeRecs fake = new FakeRecs();
    Clients.Recs recs = ResilientClients_Recs.wrap(fake, registry);

    assertEquals("FakeRecs", recs.toString());
    assertEquals(fake.hashCode(), recs.hashCode());
    assertTrue(recs.equals(fake));
    assertTrue(recs.equals(recs), "a wrapper equals itself");
  }

  @Test
  void braceWrapFindsTheGeneratedClassByName() throws IOException {
    FakeRecs fake = new FakeRecs();
    Clients.Recs recs = Brace.wrap(Clients.Recs.class, fake, registry);

    assertEquals(List.of("a", "b"), recs.recommendations("u"));
    assertEquals("ResilientClients_Recs", recs.getClass().getSimpleName());
  }

  /** The build's processors index every wrapper, which Brace.wrap reads before any name. */
  @Test
  void theIndexListsTheFactoryOfEachGeneratedWrapper() {
    WrapperFactory recsFactory = ServiceLoader.load(WrapperFactory.class).stream().map(ServiceLoader.Provider::get)
        .filter(factory -> factory.type() == Clients.Recs.class).findFirst().orElseThrow();

    assertEquals("ResilientClients_Recs", recsFactory.wrapperType().getSimpleName());
    assertEquals(recsFactory.wrapperType(), recsFactory.wrap(new FakeRecs(), registry).getClass());
  }

  @Test
  void braceWrapNamesTheMissingClassAndTheFix() {
    IllegalStateException missing = assertThrows(IllegalStateException.class,
        () -> Brace.wrap(Runnable.class, () -> { }, registry));
    assertTrue(missing.getMessage().contains("java.lang.ResilientRunnable"), missing.getMessage());
    assertTrue(missing.getMessage().contains("brace-processor"), missing.getMessage());
  }

  @Test
  void everyInterfaceShapeCompilesAndBehaves() throws Exception {
    AtomicInteger stored = new AtomicInteger();
    Clients.Repository<String> repository = ResilientClients_Repository.wrap(new Clients.Repository<String>() {
      private int finds;

      @Override
      public String find(long id) throws IOException {
        if (finds++ == 0) {
          throw new IOException("once");
        }
        return "item" + id;
      }

      @Override
      public <R extends Number> R convert(String value, Class<R> type) {
        return type.cast(Integer.valueOf(value.length()));
      }

      @Override
      public int sum(int... values) {
        int total = 0;
        for (int value : values) {
          total += value;
        }
        return total;
      }

      @Override
      public String[] split(String text, char separator) {
        return text.split(String.valueOf(separator));
      }

      @Override
      public void store(String value) {
        stored.incrementAndGet();
      }

      @Override
      public String clash(String delegate, String registry, String e, String result, String attempt, String guard,
          String failure, String permit, String run, String started) {
        return String.join(",", delegate, registry, e, result, attempt, guard, failure, permit, run, started);
      }

      @Override
      public String overloaded(String a) {
        return "one";
      }

      @Override
      public String overloaded(String a, int b) {
        return "two";
      }
    }, registry);

    assertEquals("item42", repository.find(42L));
    assertEquals(Integer.valueOf(5), repository.convert("hello", Integer.class));
    assertEquals(6, repository.sum(1, 2, 3));
    assertArrayEquals(new String[] {"a", "b"}, repository.split("a/b", '/'));
    repository.store("x");
    assertEquals(1, stored.get());
    assertEquals("1,2,3,4,5,6,7,8,9,10", repository.clash("1", "2", "3", "4", "5", "6", "7", "8", "9", "10"));
    assertEquals("one", repository.overloaded("a"));
    assertEquals("two", repository.overloaded("a", 1));
  }

  @Test
  void inheritedAndNestedInterfaces() throws IOException {
    AtomicInteger inheritedCalls = new AtomicInteger();
    Clients.Derived derived = ResilientClients_Derived.wrap(new Clients.Derived() {
      @Override
      public String inherited() throws IOException {
        if (inheritedCalls.incrementAndGet() == 1) {
          throw new IOException("once");
        }
        return "inherited";
      }

      @Override
      public String own() {
        return "own";
      }
    }, registry);
    assertEquals("inherited", derived.inherited());
    assertEquals(2, inheritedCalls.get(), "the @Retry written on Base applies");
    assertEquals("own", derived.own());

    Clients.Outer.Inner inner = ResilientClients_Outer_Inner.wrap(() -> "nested", registry);
    assertEquals("nested", inner.nested());
  }
}
