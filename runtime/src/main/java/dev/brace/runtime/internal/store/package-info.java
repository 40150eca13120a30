/**
 * What a registry holds and how a call is resolved against it. {@link
 * dev.brace.runtime.internal.store.InstanceStore} is the door the registry uses; behind it, {@link
 * dev.brace.runtime.internal.store.CallResolver} turns a call's definition into its sequence (with
 * {@link dev.brace.runtime.internal.store.SiteChecks}, what configuration may not do to a site),
 * {@link dev.brace.runtime.internal.store.InstanceCatalog} keeps the instances shared by name —
 * created on first use from the first site's effective settings, checked against every later
 * site's ({@link dev.brace.runtime.internal.store.SharedInstances}) — and answers lookups, {@link
 * dev.brace.runtime.internal.store.Backends} puts a breaker's or limiter's state locally or in the
 * backend its settings name, and {@link dev.brace.runtime.internal.store.Reconfiguration} applies
 * new configuration to all of it, all or nothing.
 */
package dev.brace.runtime.internal.store;
