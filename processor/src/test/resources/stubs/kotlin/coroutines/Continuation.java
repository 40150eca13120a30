package kotlin.coroutines;

public interface Continuation<T> {}
