from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_master_points"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="adjustment",
            name="adjustment_kind_valid",
        ),
        migrations.AlterField(
            model_name="adjustment",
            name="kind",
            field=models.CharField(
                choices=[
                    ("avg+", "average-plus"),
                    ("avg", "average"),
                    ("avg-", "average-minus"),
                    ("pct", "artificial percentage"),
                    ("weighted", "weighted score"),
                ],
                max_length=8,
                verbose_name="adjusted score",
            ),
        ),
        migrations.AddField(
            model_name="adjustment",
            name="percentage",
            field=models.DecimalField(
                blank=True, decimal_places=2, max_digits=5, null=True, verbose_name="percentage"
            ),
        ),
        migrations.AddField(
            model_name="adjustment",
            name="weighted",
            field=models.JSONField(blank=True, default=list, verbose_name="possible results"),
        ),
        migrations.AddConstraint(
            model_name="adjustment",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["avg+", "avg", "avg-", "pct", "weighted"])),
                name="adjustment_kind_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="adjustment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("kind", "pct"), ("percentage__gte", 0), ("percentage__lte", 100)),
                    models.Q(
                        models.Q(("kind", "pct"), _negated=True), ("percentage__isnull", True)
                    ),
                    _connector="OR",
                ),
                name="adjustment_percentage_of_its_kind",
            ),
        ),
    ]
