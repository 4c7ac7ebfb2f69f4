package io.cdcconnect.it.containers;

import io.cdcconnect.testsupport.servers.ContainersProvider;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Optional;

/**
 * A test class that needs containers: without a Docker engine (or Testcontainers) it is skipped, with the reason,
 * before any of its {@code @BeforeAll} methods runs. A test aborted inside {@code @BeforeAll} would vanish from
 * surefire's report instead (0 tests, no reason). With {@link #mysqlVersion()} it is also skipped unless
 * {@code cdc.test.mysql.versions} lists that version.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(RequiresContainers.Condition.class)
@interface RequiresContainers {

    /** The MySQL version the class runs on, or "" for none. */
    String mysqlVersion() default "";

    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            Optional<RequiresContainers> a = context.getTestClass()
                    .flatMap(c -> AnnotationSupport.findAnnotation(c, RequiresContainers.class));
            if (a.isEmpty()) return ConditionEvaluationResult.enabled("no @RequiresContainers");
            String version = a.get().mysqlVersion();
            if (!version.isEmpty() && !TestServers.mysqlVersions().contains(version)) {
                return ConditionEvaluationResult.disabled("MySQL " + version + " is not in cdc.test.mysql.versions="
                        + String.join(",", TestServers.mysqlVersions()));
            }
            String why = ContainersProvider.whyUnavailable();
            return why == null ? ConditionEvaluationResult.enabled("containers can run here")
                    : ConditionEvaluationResult.disabled("needs containers: " + why);
        }
    }
}
