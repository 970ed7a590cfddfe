// Reports module.
