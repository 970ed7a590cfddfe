// Test support: signal generators and collecting sinks.
