// RingBuffer module.
