package io.cdcconnect.testsupport.servers;

import io.cdcconnect.testsupport.db.DatabaseSpec;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;
import org.testcontainers.DockerClientFactory;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The containers provider's answers where no container can run: they need neither Docker nor, at all, Testcontainers. */
class ContainersProviderTest {

    @Test
    void theReasonAgreesWithTestcontainersAndNamesWhereItLooked() {
        String why = ContainersProvider.whyUnavailable();
        boolean docker = DockerClientFactory.instance().isDockerAvailable();
        assertEquals(docker, why == null, "whyUnavailable() = " + why + " while Testcontainers finds Docker: " + docker);
        if (why != null) {
            assertTrue(why.startsWith("no Docker engine reachable ("), why);
            assertTrue(why.contains("DOCKER_HOST="), why);
            assertTrue(why.contains("/var/run/docker.sock"), why);
        }
    }

    @Test
    void theAnswerIsComputedOnce() {
        String first = ContainersProvider.whyUnavailable();
        assertSame(first, ContainersProvider.whyUnavailable());
    }

    @Test
    void withoutDockerEveryStartAbortsTheTestWithTheReason() {
        String why = ContainersProvider.whyUnavailable();
        assumeTrue(why != null, "a Docker engine is reachable here: the provider would start containers");
        ContainersProvider p = new ContainersProvider();
        assertEquals(why, p.whyNot(DatabaseSpec.mysql("8.4")));
        assertEquals(why, p.whyNotKafka());
        assertEquals(why, p.whyNotRegistry());
        Path work = Path.of(System.getProperty("java.io.tmpdir"), "never-created");
        assertAbortedWith(why, () -> p.startDatabase(DatabaseSpec.tidb("8.5"), work, 1));
        assertAbortedWith(why, () -> p.startKafkaConnect(work, work, true, Map.of()));
        assertAbortedWith(why, p::startSchemaRegistry);
        assertAbortedWith(why, ContainersProvider::startTicdcUpstream);
    }

    private static void assertAbortedWith(String why, org.junit.jupiter.api.function.Executable start) {
        TestAbortedException e = assertThrows(TestAbortedException.class, start);
        assertTrue(e.getMessage().endsWith("containers: " + why), e.getMessage());
    }

    /**
     * Loads the provider in a class loader that hides Testcontainers (and docker-java), as in a module that does not
     * declare them: the class must load, link and answer, and its starts must abort, not fail with NoClassDefFoundError.
     */
    @Test
    void withoutTestcontainersOnTheClasspathTheProviderStillLoadsAndSaysSo() throws Exception {
        ClassLoader hiding = new WithoutTestcontainers(getClass().getClassLoader());
        Class<?> cls = Class.forName(ContainersProvider.class.getName(), true, hiding);
        assertTrue(cls != ContainersProvider.class && cls.getClassLoader() == hiding, "loaded apart from the test's copy");

        String why = (String) cls.getMethod("whyUnavailable").invoke(null);
        assertEquals("Testcontainers is not on this module's test classpath (org.testcontainers:testcontainers)", why);

        ServerProvider p = (ServerProvider) cls.getConstructor().newInstance();
        assertEquals("containers", p.name());
        assertEquals(why, p.whyNot(DatabaseSpec.mysql("8.0")));
        assertEquals(why, p.whyNotKafka());
        TestAbortedException aborted = assertThrows(TestAbortedException.class,
                () -> p.startDatabase(DatabaseSpec.mysql("8.0"), Path.of("unused"), 1));
        assertTrue(aborted.getMessage().contains(why), aborted.getMessage());
        InvocationTargetException viaStatic = assertThrows(InvocationTargetException.class,
                () -> cls.getMethod("startTicdcUpstream").invoke(null));
        assertTrue(viaStatic.getCause() instanceof TestAbortedException, String.valueOf(viaStatic.getCause()));
    }

    /** Defines the provider and its helpers itself; refuses Testcontainers and docker-java; delegates the rest. */
    private static final class WithoutTestcontainers extends ClassLoader {
        WithoutTestcontainers(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.testcontainers.") || name.startsWith("com.github.dockerjava.")) {
                throw new ClassNotFoundException(name + " (hidden by the test)");
            }
            if (!name.startsWith(ContainersProvider.class.getName())
                    && !name.startsWith("io.cdcconnect.testsupport.servers.containers.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    String resource = name.replace('.', '/') + ".class";
                    try (InputStream in = getParent().getResourceAsStream(resource)) {
                        if (in == null) throw new ClassNotFoundException(name);
                        byte[] bytes = in.readAllBytes();
                        c = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve) resolveClass(c);
                assertNotNull(c);
                return c;
            }
        }
    }
}
