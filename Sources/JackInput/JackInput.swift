// JackInput module.
