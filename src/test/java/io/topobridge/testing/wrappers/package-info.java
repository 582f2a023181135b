/**
 * Builders of the test objects of every kind the bridge reads, one per kind, in one style:
 * {@code DeploymentWrapper.make("web", "ns").replicas(4).gpus(4).highestTier("nvlink").obj()}. Each starts from the
 * smallest object its kind's controller accepts (one container {@code c}, image {@code x}, scheduler {@code volcano}),
 * and {@code obj()} returns a new object each time, so one wrapper can make several.
 */
package io.topobridge.testing.wrappers;
