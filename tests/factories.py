import factory
from allauth.account.models import EmailAddress

from accounts.models import User


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    display_name = factory.LazyAttribute(lambda u: u.username.title())

    @factory.post_generation
    def password(self, create, extracted, **kwargs):
        self.set_password(extracted or "correct horse battery")
        if create:
            self.save()
            EmailAddress.objects.create(user=self, email=self.email, verified=True, primary=True)
