package kotlinx.coroutines.flow;

public interface Flow<T> {}
