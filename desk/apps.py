from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class DeskAdminConfig(admin_apps.AdminConfig):
    """The admin app with the desk's site: same login, navigation, permissions and look."""

    default = False
    default_site = "desk.site.DeskAdminSite"


class DeskConfig(AppConfig):
    default = True
    name = "desk"
    label = "desk"
    verbose_name = "Editorial desk"
