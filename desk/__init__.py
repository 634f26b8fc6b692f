"""The editorial desk: task-centred pages inside the Django admin site (thin views over services)."""
